"""The segment-K reading (bitorder.cublas.segment_k, merge "pairwise") against 2026-12-02d call 2's ground
check, which stored only how many outputs torch's bytes differed in from three twins (the merge then
planned, "part0_last"; its longer-first and s-always-8 variants) on 19 algorithm-42 calls x 3 draws. The
CPU rebuilds the operands from the draws' seeds (benchmarks/fit_segment_k.py --ground): were the reading
torch, it would differ from each twin in exactly the recorded counts (a necessary condition, not a bits
comparison; benchmarks/results/2026-12-02d-segment-k-cpu)."""
import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "benchmarks"))

# the cancelling draws of calls with s = 4 (8780x37x16726: 188 outputs), 10, 11 and 31: part0_last and
# pairwise differ at every s > 2; pairwise and pairwise_first can only where s is not a power of two, and
# on these rows do at s 11 and 31 (not at s 10)
CALLS = (0, 4, 10, 7)


def _fit(monkeypatch):
    import bitorder
    print(f"bitorder from {os.path.dirname(bitorder.__file__)}")
    monkeypatch.setenv("BITORDER_UNVERIFIED", "1")
    import fit_segment_k
    return fit_segment_k


def test_pairwise_merge_reproduces_the_ground_counts(monkeypatch):
    """CI: on four cancelling draws the candidate differs from the old twin in exactly the outputs
    torch did (188, 2, 4, 286); pairing from segment 0 does not (s 11 and 31)."""
    F = _fit(monkeypatch)
    got = F.ground_fingerprint(F.GROUND, F.VARIANTS["candidate"], CALLS, ("cancel",), ("ground_candidate",))
    assert [(r[4], r[5]) for r in got] == [(188, 188), (2, 2), (4, 4), (286, 286)], got
    first = F.ground_fingerprint(F.GROUND, F.VARIANTS["pairwise_first"], (10, 7), ("cancel",), ("ground_candidate",))
    assert any(r[4] != r[5] for r in first), first


@pytest.mark.by_hand
def test_every_ground_count_by_hand(monkeypatch):
    """All 19 calls x 3 draws x 3 twins (171 counts)."""
    F = _fit(monkeypatch)
    got = F.ground_fingerprint(F.GROUND, F.VARIANTS["candidate"])
    assert len(got) == 171 and all(r[4] == r[5] for r in got), [r for r in got if r[4] != r[5]]


def test_planted_fault_pairs_from_segment_0_fails(tmp_path):
    """A copied tree whose pairwise merge pairs from segment 0 (an odd last one passing up): the CI
    ground test must fail."""
    from mutants import pytest_fails_on_mutant
    pytest_fails_on_mutant(tmp_path, "src/bitorder/cublas/segment_k.py",
                           'if merge == "pairwise":', 'if merge == "pairwise_never":',
                           "tests/cublas/test_segment_k_ground.py::test_pairwise_merge_reproduces_the_ground_counts")


def test_ground_script_rows_and_bits_file(monkeypatch, tmp_path):
    """ground_segment_k's CPU side: the checked rows reach every left-over n-tile row (41: the partly
    split one at both ends of K's reading) and three plain ones; torch's bits round-trip through the file."""
    import random

    import numpy as np
    F = _fit(monkeypatch)
    import ground_segment_k as G
    from bitorder.cublas import segment_k as S
    rec = next(r for r in F.records(41) if r["case"]["m"] == 1790)        # 19 x 14 tiles, 2 left over
    c = rec["case"]
    p = S.plan(dict(rec["ran"][0], workspace_size=rec["ran"][0]["workspace"]), c["m"], c["n"], c["k"], "fp16")
    rows = G.checked_rows(p, c["m"], random.Random(1))
    assert {r // 128 for r in rows} >= {0, 13} and any(not p.is_split(r, 0) for r in rows)
    assert any(p.is_split(r, 0) for r in rows) and any(not p.is_split(r, c["n"] - 1) for r in rows if r >= 1664)
    row42 = F.records(42)[0]
    c42 = row42["case"]
    p42 = S.record_plan(row42)
    rows42 = G.checked_rows(p42, c42["m"], random.Random(2))
    assert sum(r >= p42.dp_rows for r in rows42) >= 2 and sum(r < p42.dp_rows for r in rows42) == 3
    bits = {"cancel": np.arange(-6, 6, dtype=np.int16).reshape(3, 4)}
    r = {"case": c, "answer": rec["ran"][0], "seed": 5, "rows": [0, 1, 2]}
    G.write_bits(str(tmp_path), [r], [bits], [{"cancel": {"candidate": [[0, 1, 2, 3]]}}])
    back = G.load_bits(str(tmp_path / "ground_segment_k-bits.json.gz"))["calls"][0]
    assert np.array_equal(back["torch"]["cancel"], bits["cancel"]) and back["differ"]["cancel"]["candidate"] == [[0, 1, 2, 3]]
