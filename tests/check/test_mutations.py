"""The other direction of soundness, on the CPU: an instruction whose result reaches a global store (by the registers
it writes and reads, whatever the predicates), changed so that it computes another value, must change the signature.
2026-12-05e swept the stored corpus this way (benchmarks/results/2026-12-05e-checker-cpu, mutations.py and
mutations_attributes.py): of 4,725 mutants of v1 kernels, 50 kept their signature, each computing the same bytes (a
guard picking one of several writers of equal bits, loads swapped under an order-free max or a commuting add, a
shuffle of a lane-uniform count); the kinds below change the value wherever they apply in these kernels."""
import os
import pathlib
import sys

import pytest

import bitorder
from bitorder import check
from bitorder.compiler.demo import ROW_SUM_SIGNATURE, row_sum

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "benchmarks"))
from ptx_mutants import MUTATIONS, mutants  # noqa: E402

DATA = pathlib.Path(__file__).parent / "data"


def _kernels():
    return {"row_sum": bitorder.compile(row_sum, "sm90", signature=ROW_SUM_SIGNATURE,
                                        constexprs={"BLOCK": 512, "PINNED": False}, num_warps=2).ptx,
            "ce_bwd": (DATA / "inductor_cross_entropy_t8_red0_bwd_r512w2.ptx").read_text()}


KERNELS = _kernels()
CASES = [(k, m) for k in sorted(KERNELS) for m in MUTATIONS if mutants(KERNELS[k], m, 1)]


def test_every_mutation_applies_somewhere():
    assert {m for _, m in CASES} == set(MUTATIONS), CASES


@pytest.mark.parametrize("kernel, mutation", CASES)
def test_a_mutant_that_computes_another_value_gets_another_signature(kernel, mutation):
    ptx = KERNELS[kernel]
    assert check.level(ptx).startswith("v1")
    base = check.signature(ptx)
    for other in mutants(ptx, mutation, 2 if kernel == "ce_bwd" else 3):
        assert other != ptx
        assert check.signature(other) != base, (mutation, check.level(other))


@pytest.mark.parametrize("mutation, rel_file, old, new", [
    # an fma's addend sorted with its products: fma(a, b, c) and fma(c, b, a) become one node
    ("fma addend swapped", "src/bitorder/check/symbolic.py", "kids = sorted(kids[:2]) + kids[2:]", "kids = sorted(kids)"),
    # sub taken for a commuting operation: a - b and b - a become one node
    ("sub operands swapped", "src/bitorder/check/symbolic.py", '_COMMUTES if base in ("add", "mul")',
     '_COMMUTES if base in ("add", "mul", "sub")'),
])
def test_planted_faults_that_merge_different_values_fail_it(tmp_path, mutation, rel_file, old, new):
    """Copied trees whose tree keys forget an operand's place: the mutant test fails on them (and the run imported
    the copy: test_bits' import proof names it)."""
    sys.path.insert(0, os.path.dirname(os.path.dirname(__file__)))
    from mutants import checker_test_fails_on_mutant
    checker_test_fails_on_mutant(tmp_path, rel_file, old, new, "tests/check/test_mutations.py::"
                                 f"test_a_mutant_that_computes_another_value_gets_another_signature[ce_bwd-{mutation}]")


def test_the_gpu_mutant_check_builds_its_programs_here(tmp_path):
    """benchmarks/checker_mutants.py --cpu on two stored cases (one the checker merges, one control): each text
    compiles with its PTX as given (Triton's ir_override), and the live checker gives the verdicts the sweeps gave."""
    import gzip
    import json
    import subprocess
    root = pathlib.Path(__file__).parents[2]
    with gzip.open(root / "benchmarks" / "checker_mutants_cases.json.gz", "rt") as f:
        data = json.load(f)
    pick = [next(c for c in data["cases"] if c["expect"] == e) for e in ("same", "differs")]
    kernels = {c["kernel"] for c in pick}
    small = {"ptx": {k: data["ptx"][k] for k in kernels}, "ttgir": {k: data["ttgir"][k] for k in kernels}, "cases": pick}
    with gzip.open(tmp_path / "cases.json.gz", "wt") as f:
        json.dump(small, f)
    p = subprocess.run([sys.executable, str(root / "benchmarks" / "checker_mutants.py"), "run", "--cases",
                        str(tmp_path / "cases.json.gz"), "--out", str(tmp_path / "out"), "--cpu"],
                       capture_output=True, text=True, cwd=root)
    assert p.returncode == 0, p.stdout + p.stderr
    summary = json.loads((tmp_path / "out" / "mutants.json").read_text())["summary"]
    assert summary == {"cases": 2, "cases_given": 2, "resumed_from": None, "merged": 1, "merged_as_the_sweeps_did": 2,
                       "compiled_as_given": 2}
    rows = json.loads((tmp_path / "out" / "mutants.json").read_text())["rows"]
    assert [r["expect"] for r in rows] == ["differs", "same"]     # controls first, whatever the file's order
    # --resume with that run's rows: nothing is left to run
    p = subprocess.run([sys.executable, str(root / "benchmarks" / "checker_mutants.py"), "run", "--cases",
                        str(tmp_path / "cases.json.gz"), "--out", str(tmp_path / "again"), "--cpu", "--resume",
                        str(tmp_path / "out" / "mutants.json")], capture_output=True, text=True, cwd=root)
    assert p.returncode == 0, p.stdout + p.stderr
    assert json.loads((tmp_path / "again" / "mutants.json").read_text())["summary"]["cases"] == 0
