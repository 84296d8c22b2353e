"""The fp8 twin against bytes the H200 returned (benchmarks/results/2026-11-30-components: the
fp8 probe saved small torch._scaled_mm calls with their operands, scales and output): the
profile's fp8 candidate, replayed on the CPU with the scales, gives torch's bytes."""
import json
import os

import numpy as np
import pytest

import bitorder
from bitorder import emulate
from bitorder.cublas.profile import ArchProfile
from bitorder.emulate.gemm import np_dtype

print(f"bitorder from {bitorder.__file__}")   # (seen with -s: the planted-fault run reads its copy)
HERE = os.path.join(os.path.dirname(__file__), "..", "..", "benchmarks", "results", "2026-11-30-components")


def saved_calls():
    rows = json.load(open(os.path.join(HERE, "probe_fp8.json")))["rows"]
    return [r for r in rows if r.get("saved_as") and r.get("path") == "triton"]


@pytest.mark.parametrize("row", saved_calls(), ids=lambda r: f"{r['m']}x{r['n']}x{r['k']}-{r['out']}-"
                         f"{'fast' if r['fast_accum'] else 'slow'}-{'bias' if r['bias'] else 'nobias'}")
def test_saved_h200_calls_replay_to_torchs_bytes(row, monkeypatch):
    monkeypatch.setenv("BITORDER_UNVERIFIED", "1")         # the candidate entry, as the probe planned it
    z = np.load(os.path.join(HERE, "probe_fp8_cases.npz"))
    k = row["saved_as"]
    desc = ArchProfile.load().describe(row["planned"], row["k"], "e4m3", row["bias"], row["fast_accum"])
    assert desc is not None
    a = z[f"{k}_a"].view(np_dtype("e4m3"))
    b = z[f"{k}_b"].view(np_dtype("e4m3")).T            # saved as (N, K): b is column-major
    bias = z[f"{k}_bias"].view(np_dtype(row["out"])) if row["bias"] else None
    got = emulate.replay(desc, a, b, bias, z[f"{k}_sa"], z[f"{k}_sb"], row["out"])
    assert np.array_equal(np.ascontiguousarray(got).view(np.uint8).ravel(), z[f"{k}_ref"].ravel())


def test_the_profile_plans_what_the_probe_planned(monkeypatch):
    monkeypatch.setenv("BITORDER_UNVERIFIED", "1")
    for row in saved_calls():
        assert str(ArchProfile.load().describe(row["planned"], row["k"], "e4m3", row["bias"], row["fast_accum"])) \
            == row["desc"]


def test_planted_fault_scales_one_after_the_other_fails(tmp_path):
    """A copied tree whose fp8 entry applies scale_a then scale_b fails the fp32 call."""
    import subprocess
    import sys
    sys.path.insert(0, os.path.dirname(os.path.dirname(__file__)))
    from mutants import run_on_mutant

    # the plain fp8 entry's scale (the split entry's fp8 block names its promotion_anchor between)
    p, copy = run_on_mutant(tmp_path, "src/bitorder/cublas/profiles/sm90-cublas13.1.json",
                            '"promotion_slow": 128,\n    "scale": [\n     "scale"\n    ]',
                            '"promotion_slow": 128,\n    "scale": [\n     "scale_a", "scale_b"\n    ]',
                            ["-m", "pytest", "-q", "-s", "-p", "no:cacheprovider", "-k", "saved_h200",
                             "tests/emulate/test_fp8_probe_replay.py"])
    assert f"bitorder from {copy}" in p.stdout, p.stdout[-2000:] + p.stderr[-2000:]
    assert p.returncode != 0 and "1 failed" in p.stdout, p.stdout[-2000:]
    assert subprocess  # (imported for symmetry with the other planted-fault tests)
