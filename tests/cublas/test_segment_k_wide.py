"""Algorithm 41's run-time split with 256x64 tiles (segment_k.WIDE) against the H200's 10 survey records
(2026-12-02g call 1, torch layout tt, M 2 and 12, 46-63 tiles): every tile split into
s = workspace // (tiles * 256 * 64 * 4) segments (fp16: s = 2), or the plain chain where the workspace is 0
(bf16). A candidate: no ground check has met it yet (the H100 of call 2 answered it once in 480 designed
shapes), so it plans only under BITORDER_UNVERIFIED=1."""
import os

import pytest

from bitorder.cublas import segment_k as S
from bitorder.cublas import walks as W
from bitorder.cublas.prober import load_records, walk_codes

RECORDS = os.path.join(os.path.dirname(__file__), "..", "..", "benchmarks", "results", "2026-12-02g-gpu", "call1",
                       "survey-41-256.jsonl.gz")


@pytest.fixture(scope="module")
def records():
    recs = load_records(RECORDS)
    assert len(recs) == 10
    return recs


def _wrong(rec, p) -> int:
    """Sampled outputs (both draws) and walk positions the plan gets wrong (every tile splits alike, so row 0's
    parts stand for all)."""
    bad = S.sample_mismatches(rec, p, "narrow") + S.sample_mismatches(rec, p, "wide")
    memo: dict = {}
    for which, r in (("small", W.R_SMALL), ("edge", W.R_EDGE)):
        bad += sum(S.walk_code(p.parts_for(0, 0), p.merge, q, r, memo, p.dtype) != code
                   for q, code in walk_codes(rec, which).items())
    return bad


def test_the_reading_fits_every_record_and_its_variants_do_not(records, monkeypatch):
    monkeypatch.setenv("BITORDER_UNVERIFIED", "1")
    plans = [S.record_plan(r) for r in records]
    assert {len(p.bounds) - 1 for p in plans} == {1, 2}     # bf16: the plain chain; fp16: two segments
    assert sum(_wrong(r, p) for r, p in zip(records, plans)) == 0
    assert sum(_wrong(r, S.record_plan(r, longer="first")) for r in records) > 0
    assert sum(_wrong(r, S.record_plan(r, segments=0)) for r in records) > 0


def test_verified_plans_by_default_unverified_only_under_the_flag_and_in_its_region(records, monkeypatch):
    monkeypatch.delenv("BITORDER_UNVERIFIED", raising=False)
    assert S.WIDE[41]["verified"] and all(S.record_plan(r) is not None for r in records)   # 2026-12-03b ground
    monkeypatch.setitem(S.WIDE[41], "verified", False)
    assert all(S.record_plan(r) is None for r in records)
    monkeypatch.setenv("BITORDER_UNVERIFIED", "1")
    ans = dict(records[0]["ran"][0])
    assert S.plan(ans, 12, 15952, 18196, "fp16", layout="tt") is not None
    assert S.plan(ans, 12, 15952, 18196, "fp16", layout="nt") is None      # a layout no record ran
    assert S.plan(ans, 100, 15952, 18196, "fp16", layout="tt") is None     # M past one 64-row tile
    assert S.plan(ans, 12, 40000, 18196, "fp16", layout="tt") is None      # more tiles than the records
