"""A split whose last partitions get no K (cuBLAS launches split_k of them) merges their +0 partials.

2026-12-02f's gate (seed 20261850) found one mismatch: fp16 5578x376x2 tt, algorithm 23 split 2 with
reduction scheme 4 (output-type partials), planned as the plain chain (round_up(ceil(2/2), 8) >= K: one
part). On the CPU its differing outputs are exactly the plain chain's -0.0 outputs: cuBLAS's merge adds
the empty partition's +0, so -0 becomes +0 (epilogue step add_zero). Ground on the H200: call 6 (750
calls, 30 planned with add_zero, identical; the fault "add_zero never planned" mismatched 9).
"""
import json
import os

import numpy as np
import pytest

from bitorder.cublas.profile import ArchProfile
from bitorder.desc import DescError, GEMMDesc
from bitorder.draws import numpy_draw
from bitorder.emulate import gemm as E

HERE = os.path.dirname(__file__)
CALL6 = os.path.join(HERE, "..", "..", "benchmarks", "results", "2026-12-02f-gpu", "call5")
ANSWER = {"algo_id": 23, "tile": "128x256", "stages": "32x3", "split_k": 2, "reduction_scheme": 4, "custom_option": 0}


@pytest.fixture(scope="module")
def profile():
    return ArchProfile.load()


@pytest.mark.parametrize("scheme,k,s,bias,want", [
    (4, 2, 2, False, True),      # the gate's call: one part of two
    (4, 8, 4, False, True),
    (1, 2, 2, False, True),      # serial: the empty partition adds its +0 to the output-type partial too
    (4, 9, 2, False, False),     # two parts, both with K
    (4, 17, 4, False, True),     # three parts with K, a fourth empty
    (2, 2, 2, False, False),     # fp32 partials: a -0 can only come from the one rounding, after the merge
    (4, 2, 2, True, False),      # with a bias the merge is not this one (not read)
])
def test_empty_partitions_add_zero_to_output_type_partials(profile, scheme, k, s, bias, want):
    d = profile.describe(dict(ANSWER, reduction_scheme=scheme, split_k=s), k, "fp16", bias, layout="tt")
    assert ("add_zero" in d.epilogue) == want, d
    if want:
        assert d.epilogue[-1] == "add_zero"


@pytest.mark.parametrize("name", ["rerun-20261860.json", "rerun-20261861.json"])
def test_the_twin_reproduces_the_gates_differing_outputs(profile, name):
    """The H200 counted the outputs where bitorder's plain chain differed from torch on each wide draw;
    the twin's plain chain and its add_zero reading differ on exactly that many, all -0 against +0."""
    import bitorder
    print(f"bitorder from {os.path.dirname(bitorder.__file__)}")
    with open(os.path.join(CALL6, name)) as f:
        run = json.load(f)
    (mism,) = run["mismatches"]
    c, want = mism["case"], mism["mismatch"]["wide"]
    seed = int(name.split("-")[1].split(".")[0]) * 7 + 45120 + 1     # a rerun's case index, the wide draw
    a = np.ascontiguousarray(numpy_draw((c["k"], c["m"]), "fp16", seed, 1, "wide").T)   # layout tt
    b = np.ascontiguousarray(numpy_draw((c["n"], c["k"]), "fp16", seed, 2, "wide").T)
    desc = profile.describe(mism["answer"], c["k"], "fp16", layout="tt")
    got = E.matmul(a, b, desc).view(np.uint16)
    plain = E.matmul(a, b, desc.replace(epilogue=("round",))).view(np.uint16)
    differ = got != plain
    assert int(differ.sum()) == want
    assert (plain[differ] == 0x8000).all() and (got[differ] == 0).all()


def test_add_zero_is_the_last_step():
    with pytest.raises(DescError, match="add_zero is the last step"):
        GEMMDesc(operand_dtype="fp16", k=8, family="plain", instruction="mma_sync", instruction_k=16,
                 epilogue=("round", "add_zero", "bias_out"))


def test_launch_run_turns_minus_zero_into_plus_zero_only(monkeypatch):
    """launch.run's add_zero: -0 becomes +0; every other value keeps its bits (a NaN's too)."""
    import torch

    from bitorder.gemm import launch
    vals = torch.tensor([0x8000, 0x0000, 0x3C00, 0x7FFF, 0xFE00, 0xFC00, 0x8001], dtype=torch.int32)
    out = vals.to(torch.int16).view(torch.float16)
    monkeypatch.setattr(launch, "_run", lambda *args: out.clone())
    desc = GEMMDesc(operand_dtype="fp16", k=2, family="plain", instruction="mma_sync", instruction_k=16,
                    epilogue=("round", "add_zero"))
    got = launch.run(None, None, desc).view(torch.int16).to(torch.int32) & 0xFFFF
    assert got.tolist() == [0x0000, 0x0000, 0x3C00, 0x7FFF, 0xFE00, 0xFC00, 0x8001]
    plain = launch.run(None, None, desc.replace(epilogue=("round",))).view(torch.int16).to(torch.int32) & 0xFFFF
    assert plain.tolist() == (vals & 0xFFFF).tolist()


def test_planted_fault_add_zero_never_planned_fails(tmp_path):
    """A copied tree whose profile never plans add_zero fails the twin test above."""
    import sys
    sys.path.insert(0, os.path.dirname(HERE))
    from mutants import PYTEST, run_on_mutant

    p, copy = run_on_mutant(tmp_path, "src/bitorder/cublas/profile.py",
                            '("round",) + (("add_zero",) if empty_parts else ())', '("round",)',
                            PYTEST + ["tests/cublas/test_empty_partitions.py", "-k", "twin_reproduces"])
    assert f"bitorder from {copy}" in p.stdout, p.stdout[-2000:] + p.stderr[-2000:]
    assert p.returncode != 0 and "failed" in p.stdout
