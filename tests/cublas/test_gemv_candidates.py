"""The gemv keys of the 2026-12-02c probe (option 53 fp16, option 59 bf16 with F.linear's bias at beta = 1):
fitted on the CPU from the H200's designed records, verified by the 2026-12-02d ground check (218 fresh
calls identical, their planted fault mutant-probed-i differing on 205); they plan within the K they were
read at."""
import gzip
import json
import os
import sys

from bitorder.cublas import gemv_design as G
from bitorder.cublas import gemv_rule

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
sys.path.insert(0, os.path.join(ROOT, "benchmarks"))
PROBE = os.path.join(ROOT, "benchmarks", "results", "2026-12-02c-gpu", "call4", "gemv-probe",
                     "probe_gemv_answers.json.gz")


def test_candidates_predict_every_record_and_replay_one_per_key(monkeypatch):
    import probe_gemv
    with gzip.open(PROBE, "rt") as f:
        recs = json.load(f)["records"]
    monkeypatch.delenv("BITORDER_UNVERIFIED", raising=False)      # verified: they plan by default
    seen = set()
    for rec in recs:
        c, a = rec["case"], rec["answer"]
        order = gemv_rule.order_for(a, c["k"], c["dtype"], outputs=max(c["m"], c["n"]))
        assert order is not None, c
        pairs, tracers = probe_gemv.design_for(c["k"], c["dtype"])
        assert (G.decode(rec["bits"], c["dtype"]) == G.predict(order, c["k"], pairs, tracers)).all(), c
        key = (a["custom_option"], c["dtype"])
        if key not in seen:           # the twin's bytes on the designed rows, bias call too (CI time: one a key)
            assert probe_gemv.confirm(rec, [order], pairs, tracers), c
            seen.add(key)
    assert seen == {(53, "fp16"), (59, "bf16")}
    # past the K read: cuBLAS
    a = dict(recs[0]["answer"])
    assert gemv_rule.order_for(a, 125, "bf16") is None and gemv_rule.order_for(a, 124, "bf16") is not None


def test_a_wrong_lane_count_misses_the_records(monkeypatch):
    """Planted fault: option 53 read as 4 lanes (option 59's) predicts other tracer bits."""
    monkeypatch.setenv("BITORDER_UNVERIFIED", "1")
    with gzip.open(PROBE, "rt") as f:
        rec = next(r for r in json.load(f)["records"] if r["case"]["dtype"] == "fp16")
    import probe_gemv
    c = rec["case"]
    order = gemv_rule.order_for(rec["answer"], c["k"], c["dtype"])
    pairs, tracers = probe_gemv.design_for(c["k"], c["dtype"])
    wrong = order.replace(lanes=4)
    assert not (G.decode(rec["bits"], c["dtype"]) == G.predict(wrong, c["k"], pairs, tracers)).all()


def test_the_ground_checked_calls_plan_by_default_within_the_k_read(monkeypatch):
    """The 2026-12-02d ground's 224 calls with their recorded answers: the 218 within the K read get a
    gemv order without BITORDER_UNVERIFIED, the 6 past it none (cuBLAS)."""
    monkeypatch.delenv("BITORDER_UNVERIFIED", raising=False)
    with gzip.open(os.path.join(ROOT, "benchmarks", "results", "2026-12-02d-gpu", "call3", "census-near13.json.gz"),
                   "rt") as f:
        rows = [r for r in json.load(f)["not_triton"] if r["answer"].get("custom_option") in (53, 59)
                and r["answer"]["algo_id"] == 13]
    with open(os.path.join(ROOT, "benchmarks", "results", "2026-12-02d-gpu", "ground13-cases.json")) as f:
        ground = {json.dumps(c, sort_keys=True) for c in json.load(f)["not_reached_cases"]}
    rows = [r for r in rows if json.dumps(r["case"], sort_keys=True) in ground]
    planned = [gemv_rule.order_for(r["answer"], r["case"]["k"], r["case"]["dtype"]) is not None for r in rows]
    assert len(rows) == 224 and sum(planned) == 218
    assert all(p == (r["case"]["k"] <= (178 if r["case"]["dtype"] == "fp16" else 124)) for p, r in zip(planned, rows))
