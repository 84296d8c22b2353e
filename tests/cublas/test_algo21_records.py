"""Algorithm 21's s16816 serial split-K kernels (stages 64x3 / 64x6, F.linear with a bias) against
the H200's recorded calls: the candidate entry (bias added by the last partition, `bias_last`) gives
the recorded bytes where the first-partition reading (the wmma entry's) does not (2026-12-01e CPU fit,
benchmarks/fit_algo21.py; verified on fresh H200 calls 2026-12-01f)."""
import dataclasses
import os

from bitorder.cublas.profile import ArchProfile
from bitorder.cublas.prober import describe_record, load_records, sample_mismatches

RESULTS = os.path.join(os.path.dirname(__file__), "..", "..", "benchmarks", "results")


def _records():
    recs = load_records(os.path.join(RESULTS, "2026-12-01c-gate", "survey-fallback.jsonl.gz"))
    return [r for r in recs if r.get("ran") and int(r["ran"][0]["algo_id"]) == 21
            and int(r["ran"][0]["reduction_scheme"]) == 1 and r["ran"][0]["stages"] in ("64x3", "64x6")]


def test_the_s16816_serial_entry_gives_the_recorded_bytes():
    recs = _records()
    assert len(recs) >= 4
    profile = ArchProfile.load()
    checked = 0
    for rec in recs[:1]:                                               # (CI time: K is 200k-380k)
        d = describe_record(profile, rec)
        if d is None:                                                  # K a multiple of 64: unread
            continue
        assert d.epilogue == ("bias_last", "round") and d.merge_order == "serial_added"
        assert sample_mismatches(rec, d, "narrow") == 0, rec["case"]   # (wide draws and walks: the fit script)
        # the planted fault: the bias in the first part (the wmma kernels' reading) misses
        first = dataclasses.replace(d, epilogue=("bias_acc", "round"))
        assert sample_mismatches(rec, first, "narrow") > 0
        checked += 1
    assert checked >= 1


def test_k_a_multiple_of_64_takes_the_k_major_span(monkeypatch):
    """algo21-s16816-splitk-serial at K a multiple of 64 (the -wide candidate of 2026-12-02, verified and
    merged 2026-12-02b): the K-major span of the wmma and scheme-2 entries (granule 64 when an operand runs
    along K); the granule-8 span misses (the planted fault). In layout nt (no operand along K) the granule stays 8."""
    monkeypatch.delenv("BITORDER_UNVERIFIED", raising=False)
    recs = [r for r in load_records(os.path.join(RESULTS, "2026-12-02-gpu", "call3", "survey-21-41-42.jsonl.gz"))
            if int(r["ran"][0]["algo_id"]) == 21 and int(r["ran"][0]["reduction_scheme"]) == 1]
    assert len(recs) == 12
    def spans(r):                                       # (granule 8, granule 64) of ceil(K / s)
        c = -(-r["case"]["k"] // r["ran"][0]["split_k"])
        return -(-c // 8) * 8, -(-c // 64) * 64
    # the shallowest record where the two granules cut K apart (CI time)
    rec = min((r for r in recs if r["case"]["k"] % 64 == 0 and len(set(spans(r))) == 2), key=lambda r: r["case"]["k"])
    profile = ArchProfile.load()
    d = describe_record(profile, rec)
    assert d.epilogue == ("bias_last", "round") and d.merge_order == "serial_added"
    assert sample_mismatches(rec, d, "narrow") == 0, rec["case"]
    assert d.k_cuts == (spans(rec)[1],)
    fine = dataclasses.replace(d, k_cuts=(spans(rec)[0],))
    assert sample_mismatches(rec, fine, "narrow") > 0
    # cuBLAS layout nt (no operand along K): granule 8 there too (the 2026-12-02b ground)
    assert profile.describe(rec["ran"][0], rec["case"]["k"], rec["case"]["dtype"], True, layout="nt").k_cuts == (spans(rec)[0],)
