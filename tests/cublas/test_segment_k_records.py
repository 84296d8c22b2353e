"""cuBLAS's run-time split (split_k -1, sm90 xmma "segment_k_on") against the H200's survey records: the
reading in bitorder.cublas.segment_k (whole waves of 132 tiles plain; each left-over tile's K iterations
cut into s even segments, the longer last; fp32 partials summed pairwise from the last segment; tiles in a
serpentine order) replayed on the twin's primitives (benchmarks/fit_segment_k.py): algorithm 42's 32
records (2026-12-02 call 3, 2026-12-02c call 4; benchmarks/results/2026-12-02c-segment-k-cpu) and
algorithm 41's 35 (2026-12-02d call 3; benchmarks/results/2026-12-02d-segment-k-cpu)."""
import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "benchmarks"))

# the draws where the records tell the readings apart (the left-over tile's row; plain misses each)
KEY_DRAWS = (("8705x16x29989", "narrow"), ("9019x13x29739", "narrow"), ("9019x13x29739", "wide"),
             ("9194x11x29739", "wide"))
WALKED = "8609x15x22906"     # its walks cross a boundary of segments 2 and 3 in a left-over tile
# algorithm 41: a partly left-over n-tile row that is odd (its m-tiles run descending: m-tile 0 is split,
# which the walks at column 0 read) in both; the sampled bits of its last row tell the orders apart too
ODD_ROWS_41 = ("1790x2410x2046", "1709x2550x2046")
EVEN_ROW_41 = "2391x1954x2286"     # an even one (ascending: m-tile 0 not split, its walks keep the plain codes)


def _fit(monkeypatch):
    import bitorder
    print(f"bitorder from {os.path.dirname(bitorder.__file__)}")     # (the planted-fault run checks which tree)
    monkeypatch.setenv("BITORDER_UNVERIFIED", "1")
    import fit_segment_k
    return fit_segment_k


def _by_shape(F, algo: int = 42) -> dict:
    recs = F.records(algo)
    assert len(recs) == {42: 32, 41: 35}[algo]
    return {"{m}x{n}x{k}".format(**r["case"]): r for r in recs}


def _last_row_bad(rec, **variant) -> int:
    from bitorder.cublas import segment_k as S
    return sum(S.sample_mismatches(rec, S.record_plan(rec, **variant), kind, [rec["case"]["m"] - 1])
               for kind in ("narrow", "wide"))


def test_plans_when_verified_or_unverified(monkeypatch):
    """A kernel not marked verified plans only under BITORDER_UNVERIFIED=1; both are verified (2026-12-02f), so
    every record has a plan by default (42: s 2-16; 41: s 2-8)."""
    from bitorder.cublas import segment_k as S
    F = _fit(monkeypatch)
    recs, recs41 = F.records(42), F.records(41)
    monkeypatch.delenv("BITORDER_UNVERIFIED")
    assert S.KERNELS[42]["verified"] and S.KERNELS[41]["verified"]
    assert {len(S.record_plan(r).bounds) - 1 for r in recs} == {2, 4, 8, 10, 13, 16}
    assert {len(S.record_plan(r).bounds) - 1 for r in recs41} == {2, 3, 4, 5, 6, 8}
    for algo in (42, 41):
        monkeypatch.setitem(S.KERNELS[algo], "verified", False)
    assert all(S.record_plan(r) is None for r in recs + recs41)
    monkeypatch.setenv("BITORDER_UNVERIFIED", "1")
    assert {len(S.record_plan(r).bounds) - 1 for r in recs} == {2, 4, 8, 10, 13, 16}


def test_merge_trees():
    """The merges as trees: pairwise pairs from the last segment (an odd first one passes up)."""
    from bitorder.cublas.segment_k import merge_tree
    assert merge_tree(4) == ((0, 1), (2, 3))
    assert merge_tree(5) == (0, ((1, 2), (3, 4)))
    assert merge_tree(10) == ((0, 1), (((2, 3), (4, 5)), ((6, 7), (8, 9))))
    assert merge_tree(10, "pairwise_first") == ((((0, 1), (2, 3)), ((4, 5), (6, 7))), (8, 9))
    assert merge_tree(4, "part0_last") == (((1, 2), 3), 0)
    assert merge_tree(3, "sequential") == ((0, 1), 2)


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
    plain = sum(S.sample_mismatches(r, S.SegmentKPlan(r["case"]["k"], "bf16", (0, r["case"]["k"])),
                                    kind, [r["case"]["m"] - 1]) for r in keys for kind in ("narrow", "wide"))
    assert plain > 0
    walked = recs[WALKED]
    bad, n = S.walk_mismatches(walked, S.record_plan(walked))
    assert bad == 0 and n > 40000, (bad, n)
    assert S.walk_mismatches(walked, S.record_plan(walked, merge="sequential"))[0] > 0


def test_algorithm_41_serpentine_tiles(monkeypatch):
    """CI: algorithm 41 (128x128 tiles, two waves plain): three records' sampled bits and walks
    reproduced; m-tiles ascending in every n-tile row (rowmajor) misses the odd rows' walks and bits."""
    from bitorder.cublas import segment_k as S
    F = _fit(monkeypatch)
    recs = _by_shape(F, 41)
    for shape in ODD_ROWS_41 + (EVEN_ROW_41,):
        bits, bad, n = F.check(recs[shape], {})
        assert bits == 0 and bad == 0 and n > 4000, (shape, bits, bad, n)
    for shape in ODD_ROWS_41:
        rec = recs[shape]
        assert S.walk_mismatches(rec, S.record_plan(rec, order="rowmajor"))[0] > 40, shape
    assert sum(_last_row_bad(recs[s], order="rowmajor") for s in ODD_ROWS_41) > 0


@pytest.mark.by_hand
def test_every_record_by_hand(monkeypatch):
    """All 32 + 35 records: every sampled output of both draws (three rows) and every recorded walk
    position (1.6M + 144k)."""
    F = _fit(monkeypatch)
    for algo in (42, 41):
        for rec in F.records(algo):
            bits, bad, n = F.check(rec, {})
            assert bits == 0 and bad == 0 and n > 3000, (rec["case"], bits, bad, n)


def test_planted_fault_longer_segments_first_fails(tmp_path):
    """A copied tree whose segment_bounds puts the longer segments first (boundaries moved by one K
    tile wherever s does not divide the iterations): the CI record test must fail."""
    from mutants import pytest_fails_on_mutant
    pytest_fails_on_mutant(tmp_path, "src/bitorder/cublas/segment_k.py",
                           'i >= s - extra if longer == "last" else i < extra',
                           'i < extra if longer == "last" else i >= s - extra',
                           "tests/cublas/test_segment_k_records.py::"
                           "test_the_segment_k_candidate_gives_the_recorded_bytes_and_walks")


def test_planted_fault_rowmajor_tiles_fails(tmp_path):
    """A copied tree whose tile order runs every n-tile row's m-tiles ascending: the 41 test must fail."""
    from mutants import pytest_fails_on_mutant
    pytest_fails_on_mutant(tmp_path, "src/bitorder/cublas/segment_k.py",
                           'flip = self.order == "serpentine" and ni % 2 == 1',
                           'flip = self.order == "serpentine" and ni % 2 == 2',
                           "tests/cublas/test_segment_k_records.py::test_algorithm_41_serpentine_tiles")
