"""Run-time split answers whose kernel runs segment-K off (segment_k.UNSPLIT) against the H200's 5 survey records
(2026-12-02h call 6: algorithm 41, 64x64 tiles, split_k -1, fp16 F.linear with a bias, 114-128 tiles, torch layouts
tt and tn; the kernels' names say "execute_segment_k_off"): the plain wgmma k16 chain with the bias added in fp32
before the rounding fits every sampled output and walk position; split or bias-after-rounding readings do not. A
candidate: it plans only under BITORDER_UNVERIFIED=1 and inside the records' region."""
import dataclasses
import os

import pytest

from bitorder.cublas import prober
from bitorder.cublas import segment_k as S
from bitorder.cublas.profile import BIAS_EPILOGUE
from bitorder.desc import GEMMDesc

RECORDS = os.path.join(os.path.dirname(__file__), "..", "..", "benchmarks", "results", "2026-12-02h-gpu", "call6",
                       "survey-41-bias.jsonl.gz")


@pytest.fixture(scope="module")
def records():
    recs = prober.load_records(RECORDS)
    assert len(recs) == 5 and all("segment_k_off" in r["kernels"][0] for r in recs)
    return recs


def _plain(rec, bias_rule="bias_acc"):
    return GEMMDesc("plain", rec["case"]["dtype"], rec["case"]["k"], "wgmma", 16, epilogue=BIAS_EPILOGUE[bias_rule])


def _region(rec):
    c = rec["case"]
    return S.unsplit(rec["ran"][0], c["m"], c["n"], c["k"], c["dtype"], c["op"] == "linear_bias", c["layout"])


def test_the_plain_chain_fits_every_record_and_the_variants_do_not(records):
    assert all(prober.record_mismatches(r, _plain(r)) == (0, 0) for r in records)
    assert all(prober.record_mismatches(r, _plain(r, "bias_out"))[0] > 0 for r in records)
    for r in records:          # the walks tell a split chain apart: 2 segments of the K iterations
        c = r["case"]
        two = S.SegmentKPlan(c["k"], c["dtype"], S.segment_bounds(c["k"], 2), "pairwise", 64, 1, 1, 0)
        one = dataclasses.replace(two, bounds=(0, c["k"]))
        assert S.walk_mismatches(r, one)[0] == 0 and S.walk_mismatches(r, two)[0] > 0


def test_it_plans_once_verified_or_under_unverified_and_only_in_its_region(records, monkeypatch):
    monkeypatch.delenv("BITORDER_UNVERIFIED", raising=False)
    assert S.UNSPLIT[41]["verified"] and all(_region(r) == "bias_acc" for r in records)   # grounded 2026-12-03
    monkeypatch.setitem(S.UNSPLIT[41], "verified", False)
    assert all(_region(r) is None for r in records)
    monkeypatch.setenv("BITORDER_UNVERIFIED", "1")
    assert all(_region(r) == "bias_acc" for r in records)
    ans = dict(records[0]["ran"][0])
    assert S.unsplit(ans, 372, 1258, 1262, "fp16", True, "tt") == "bias_acc"
    assert S.unsplit(ans, 372, 1258, 1262, "fp16", False, "tt") is None     # no bias: no record
    assert S.unsplit(ans, 372, 1258, 1262, "bf16", True, "tt") is None      # bf16: no record
    assert S.unsplit(ans, 372, 1258, 1262, "fp16", True, "nt") is None      # a layout no record ran
    assert S.unsplit(ans, 372, 1258, 2000, "fp16", True, "tt") is None      # K past the records'
    assert S.unsplit(ans, 900, 1258, 1262, "fp16", True, "tt") is None      # 300 tiles: past one wave
    assert S.unsplit({**ans, "tile": "128x128"}, 372, 1258, 1262, "fp16", True, "tt") is None
    assert S.unsplit({**ans, "split_k": 1}, 372, 1258, 1262, "fp16", True, "tt") is None
