"""The gemv candidates of the 2026-12-02c probe (option 53 fp16, option 59 bf16 with F.linear's bias at
beta = 1): fitted on the CPU from the H200's designed records; they plan only under BITORDER_UNVERIFIED=1
until a ground check on fresh calls, and within the K they were read at."""
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
    monkeypatch.delenv("BITORDER_UNVERIFIED", raising=False)
    assert all(gemv_rule.order_for(r["answer"], r["case"]["k"], r["case"]["dtype"]) is None for r in recs)
    monkeypatch.setenv("BITORDER_UNVERIFIED", "1")
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
