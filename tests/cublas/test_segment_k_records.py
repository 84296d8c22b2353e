"""cuBLAS algorithm 42 with a run-time split (split_k -1, sm90 xmma "segment_k_on", bf16, tile 64x64)
against the H200's 32 recorded calls (2026-12-02 call 3, 2026-12-02c call 4): the candidate in
bitorder.cublas.segment_k (one wave of 132 tiles plain; each left-over tile's K iterations cut into s
even segments, the longer last; fp32 partials, segments 1..s-1 summed, segment 0 added last) replayed
on the twin's primitives (benchmarks/fit_segment_k.py; benchmarks/results/2026-12-02c-segment-k-cpu)."""
import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "benchmarks"))

# the draws where the records tell the readings apart (the left-over tile's row; plain misses each)
KEY_DRAWS = (("8705x16x29989", "narrow"), ("9019x13x29739", "narrow"), ("9019x13x29739", "wide"),
             ("9194x11x29739", "wide"))
WALKED = "8609x15x22906"     # its walks cross a boundary of segments 1 and 2 in a left-over tile


def _fit(monkeypatch):
    import bitorder
    print(f"bitorder from {os.path.dirname(bitorder.__file__)}")     # (the planted-fault run checks which tree)
    monkeypatch.setenv("BITORDER_UNVERIFIED", "1")
    import fit_segment_k
    return fit_segment_k


def _by_shape(F) -> dict:
    recs = F.records()
    assert len(recs) == 32
    return {"{m}x{n}x{k}".format(**r["case"]): r for r in recs}


def _last_row_bad(rec, **variant) -> int:
    from bitorder.cublas import segment_k as S
    return sum(S.sample_mismatches(rec, S.record_plan(rec, **variant), kind, [rec["case"]["m"] - 1])
               for kind in ("narrow", "wide"))


def test_candidate_plans_only_under_unverified(monkeypatch):
    """No plan without BITORDER_UNVERIFIED=1; with it, every record has one (s 2-16)."""
    from bitorder.cublas import segment_k as S
    F = _fit(monkeypatch)
    recs = F.records()
    monkeypatch.delenv("BITORDER_UNVERIFIED")
    assert all(S.record_plan(r) is None for r in recs)
    monkeypatch.setenv("BITORDER_UNVERIFIED", "1")
    segs = {len(S.record_plan(r).bounds) - 1 for r in recs}
    assert segs == {2, 4, 8, 10, 13, 16}


def test_the_segment_k_candidate_gives_the_recorded_bytes_and_walks(monkeypatch):
    """CI: the key draws' left-over row and one call's walks reproduced; the plain chain, the longer
    segments first (one K tile moved) and s - 1 / s + 1 miss the key draws, a merge from segment 0
    upwards misses the walks. (Every record and sampled row: test_every_record_by_hand.)"""
    from bitorder.cublas import segment_k as S
    F = _fit(monkeypatch)
    recs = _by_shape(F)
    for shape, kind in KEY_DRAWS:
        rec = recs[shape]
        p = S.record_plan(rec)
        assert S.sample_mismatches(rec, p, kind, [rec["case"]["m"] - 1]) == 0, (shape, kind)
    keys = [recs[s] for s in sorted({s for s, _ in KEY_DRAWS})]
    for variant in ({"longer": "first"}, {"s_shift": -1}, {"s_shift": 1}):
        assert sum(_last_row_bad(r, **variant) for r in keys) > 0, variant
    plain = sum(S.sample_mismatches(r, S.SegmentKPlan(r["case"]["k"], "bf16", 1 << 30, (0, r["case"]["k"])),
                                    kind, [r["case"]["m"] - 1]) for r in keys for kind in ("narrow", "wide"))
    assert plain > 0
    walked = recs[WALKED]
    bad, n = S.walk_mismatches(walked, S.record_plan(walked))
    assert bad == 0 and n > 40000, (bad, n)
    assert S.walk_mismatches(walked, S.record_plan(walked, merge="sequential"))[0] > 0


@pytest.mark.by_hand
def test_every_record_by_hand(monkeypatch):
    """All 32 records: every sampled output of both draws (three rows: two plain tiles, the last
    left-over tile) and every recorded walk position (1.6M)."""
    F = _fit(monkeypatch)
    for rec in F.records():
        bits, bad, n = F.check(rec, {})
        assert bits == 0 and bad == 0 and n > 15000, (rec["case"], bits, bad, n)


def test_planted_fault_longer_segments_first_fails(tmp_path):
    """A copied tree whose segment_bounds puts the longer segments first (boundaries moved by one K
    tile wherever s does not divide the iterations): the CI record test must fail."""
    from mutants import pytest_fails_on_mutant
    pytest_fails_on_mutant(tmp_path, "src/bitorder/cublas/segment_k.py",
                           'i >= s - extra if longer == "last" else i < extra',
                           'i < extra if longer == "last" else i >= s - extra',
                           "tests/cublas/test_segment_k_records.py::"
                           "test_the_segment_k_candidate_gives_the_recorded_bytes_and_walks")
