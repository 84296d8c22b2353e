"""Names are not bits: a kernel whose registers, labels, entry and parameters are renamed (a bijection, the code
otherwise the same text) returns the same bytes, so the checker must give it the same signature and level, at v1
(trees) and at v0 (program text). 2026-12-05e swept one configuration of every kernel of the stored corpus this way
(benchmarks/results/2026-12-05e-checker-cpu/rename.py): 256 of 256 answers equal."""
import os
import pathlib
import random
import re
import sys

import pytest
from hypothesis import Phase, given, settings, strategies as st

import bitorder
from bitorder import check
from bitorder.compiler.demo import ROW_SUM_SIGNATURE, row_sum

DATA = pathlib.Path(__file__).parent / "data"
_REG = re.compile(r"%(rd|rs|r|fd|f|p|hh|h|b)(\d+)\b")


def renamed(ptx: str, seed: int) -> str:
    """ptx with every register's number permuted within its class (the numbers stay below .reg's bound), the
    entry and its parameters renamed, and every $L__ label renamed."""
    rng = random.Random(seed)
    used = {}
    for cls, n in _REG.findall(ptx):
        used.setdefault(cls, set()).add(int(n))
    perm = {}
    for cls, ns in used.items():
        old = sorted(ns)
        new = old[:]
        rng.shuffle(new)
        perm.update({(cls, a): b for a, b in zip(old, new)})
    out = _REG.sub(lambda m: f"%{m.group(1)}{perm[(m.group(1), int(m.group(2)))]}", ptx)
    name = re.search(r"\.entry\s+(\w+)", out).group(1)
    out = re.sub(rf"\b{re.escape(name)}(_param_\d+)?\b", lambda m: "k" + str(seed % 997) + (m.group(1) or ""), out)
    labels = sorted(set(re.findall(r"\$L__\w+", out)), key=len, reverse=True)   # $L__tmp10 before $L__tmp1
    order = list(range(len(labels)))
    rng.shuffle(order)
    for label, i in zip(labels, order):
        out = re.sub(re.escape(label) + r"\b", f"$L__Z{i}", out)
    return out


def _kernels():
    rows = [bitorder.compile(row_sum, "sm90", signature=ROW_SUM_SIGNATURE, constexprs={"BLOCK": 512, "PINNED": p},
                             num_warps=2).ptx for p in (False, True)]
    return {"row_sum": rows[0], "row_sum_pinned": rows[1],
            "ce_bwd": (DATA / "inductor_cross_entropy_t8_red0_bwd_r512w2.ptx").read_text(),   # v1, a store fold
            "gemm": (DATA / "gemm_fp16_bm64_bn64_bk32_w4_s2.ptx").read_text()}                  # v0, program text


KERNELS = _kernels()


@pytest.mark.parametrize("name", sorted(KERNELS))
@settings(max_examples=3, deadline=None, phases=(Phase.generate,))   # (no shrinking: any seed is as simple)
@given(seed=st.integers(0, 2**32 - 1))
def test_renaming_registers_labels_and_the_entry_keeps_the_class(name, seed):
    ptx = KERNELS[name]
    other = renamed(ptx, seed)
    assert other != ptx and check.parse(other)   # a different text the reader still reads
    assert check.level(other) == check.level(ptx)
    assert check.signature(other) == check.signature(ptx)
    assert check.equivalent(ptx, other)


def test_the_levels_tested_are_v1_and_v0():
    """The property above covers both levels (a kernel that moved level would test less than it says)."""
    levels = {name: check.level(ptx)[:2] for name, ptx in KERNELS.items()}
    assert levels == {"row_sum": "v1", "row_sum_pinned": "v1", "ce_bwd": "v1", "gemm": "v0"}, levels


@pytest.mark.parametrize("kernel, rel_file, old, new", [
    # v0 keeps register names: its program text is no longer canonical
    ("gemm", "src/bitorder/check/signature.py", 'name = names[t] = f"{kind}{counts[kind]}"',
     'name = names[t] = t if kind == "v" else f"{kind}{counts[kind]}"'),
    # v1 names a parameter by its text, not its place: an address depends on the entry's name
    ("row_sum", "src/bitorder/check/dataflow.py", 'atom(f"param:arg{i}")', 'atom(f"param:{p}")'),
])
def test_planted_faults_that_let_names_into_a_signature_fail_the_property(tmp_path, kernel, rel_file, old, new):
    """Copied trees where a name reaches the signature: the property test fails on them (and the run imported the
    copy: test_bits' import proof names it)."""
    sys.path.insert(0, os.path.dirname(os.path.dirname(__file__)))
    from mutants import checker_test_fails_on_mutant
    checker_test_fails_on_mutant(tmp_path, rel_file, old, new,
                                 f"tests/check/test_renaming.py::test_renaming_registers_labels_and_the_entry_keeps_the_class[{kernel}]")
