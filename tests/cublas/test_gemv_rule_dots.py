"""Batched dots by K and by the batch: the 2026-12-03b records (H200; benchmarks/results/2026-12-03b-gpu).

cuBLAS picks a batched dot's launch (its lane count, gemvx's capped contiguous slices or chunks of one) by K and
the batch, not by the heuristic's option alone: option 10 bf16 at K 41-79 runs 16 lanes at batches 2-21 and 4 from
24; at K 81-94, 16, then 32 at batches 24-41, then 16 again from 44. The profile's entries bound both, over what
the records ran. Candidates at first (they planned only under BITORDER_UNVERIFIED=1), verified by call 6's ground.
2026-12-03c (benchmarks/results/2026-12-03c-gpu): the band bf16 K 95-1,024 at batches 21-47 and the long dots. The
verified option-10 bf16 entries from K 95 had no batch bound and said 16 lanes; cuBLAS runs 32 at batches 24-41
there (42 of 42 records): those entries are bounded now, and the 32-lane region is its own entry (verified by call 2).
"""
import functools
import gzip
import json
import os
import sys

from bitorder.cublas import gemv_design as G
from bitorder.cublas import gemv_rule

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
RESULTS = os.path.join(ROOT, "benchmarks", "results", "2026-12-03b-gpu")
BAND = os.path.join(ROOT, "benchmarks", "results", "2026-12-03c-gpu", "call1", "r", "gemv", "probe_gemv.json.gz")
sys.path.insert(0, os.path.join(ROOT, "benchmarks"))
PROBES = ("call1/r/gemv-dots/probe_gemv.json.gz", "call5/r/gemv-grid/probe_gemv.json.gz",
          "call5/r/gemv-map/probe_gemv.json.gz")
DOT = {"algo_id": 13, "split_k": 1}


@functools.lru_cache(maxsize=None)
def records() -> tuple:
    """(name, record) of the three probes' records with a launch and an answer, read once for every test."""
    out = []
    for path in PROBES + (BAND,):
        with gzip.open(os.path.join(RESULTS, path), "rt") as f:
            for i, rec in enumerate(json.load(f)["records"]):
                if "error" not in rec and rec.get("launch") and rec.get("answer"):
                    out.append((f"{'band' if path == BAND else path.split('/')[0]}:{path.split('/')[-2]}:{i}", rec))
    return tuple(out)


def _order(rec):
    c = rec["case"]
    return gemv_rule.batched_dot_order(rec["answer"], c["k"], c["dtype"], batch=c["batch"])


def test_every_record_an_entry_plans_gives_its_tracer_bits(monkeypatch):
    """Each of the 800 records a verified entry or a candidate plans predicts its tracer bits; one record per
    (option, dtype, lanes, layout) replays its designed rows bytewise through simt.matmul."""
    import probe_gemv
    monkeypatch.setenv("BITORDER_UNVERIFIED", "1")
    planned, bytewise = 0, set()
    for name, rec in records():
        order = _order(rec)
        if order is None:
            continue
        c = rec["case"]
        planned += 1
        pairs, tracers = probe_gemv.design_for(c["k"], c["dtype"])
        assert (G.decode(rec["bits"], c["dtype"]) == G.predict(order, c["k"], pairs, tracers)).all(), name
        key = (rec["answer"]["custom_option"], c["dtype"], order.lanes, order.chunk, order.cap)
        if key not in bytewise:
            assert probe_gemv.confirm(rec, [order], pairs, tracers), name
            bytewise.add(key)
    assert planned >= 790 and len(bytewise) >= 15


def test_lanes_read_one_step_off_miss_the_records(monkeypatch):
    """The planted fault in miniature: the same entries with half the lanes predict other tracer bits."""
    import probe_gemv
    monkeypatch.setenv("BITORDER_UNVERIFIED", "1")
    wrong = tried = 0
    for name, rec in records():
        order = _order(rec)
        if order is None or order.lanes < 4 or rec["case"]["k"] > 2000:
            continue
        c = rec["case"]
        pairs, tracers = probe_gemv.design_for(c["k"], c["dtype"])
        tried += 1
        wrong += not (G.decode(rec["bits"], c["dtype"]) ==
                      G.predict(order.replace(lanes=order.lanes // 2), c["k"], pairs, tracers)).all()
    assert tried >= 300 and wrong == tried


def test_the_lanes_follow_the_batch_and_unread_batches_go_to_cublas(monkeypatch):
    monkeypatch.setenv("BITORDER_UNVERIFIED", "1")
    o10 = dict(DOT, custom_option=10)
    assert gemv_rule.batched_dot_order(o10, 60, "bf16", batch=12).lanes == 16
    assert gemv_rule.batched_dot_order(o10, 60, "bf16", batch=32).lanes == 4
    assert gemv_rule.batched_dot_order(o10, 87, "bf16", batch=32).lanes == 32
    assert gemv_rule.batched_dot_order(o10, 87, "bf16", batch=64).lanes == 16
    assert gemv_rule.batched_dot_order(o10, 60, "bf16", batch=22) is None       # between 21 and 24: unread
    assert gemv_rule.batched_dot_order(o10, 80, "bf16", batch=8) is None        # K 80: unread
    o93 = dict(DOT, custom_option=93)
    assert gemv_rule.batched_dot_order(o93, 3000, "fp16", batch=40).lanes == 32
    assert gemv_rule.batched_dot_order(o93, 3000, "fp16", batch=70).lanes == 16


def test_option_10_bf16_past_k_94_runs_32_lanes_at_batches_24_to_41(monkeypatch):
    """The 2026-12-03c defect, kept fixed: the band's records at batches 24-41 ran 32 lanes (block 32x4), and the
    16 lanes the verified entries used to say there predict other tracer bits in every one of them."""
    import probe_gemv
    monkeypatch.delenv("BITORDER_UNVERIFIED", raising=False)
    band = [(n, r) for n, r in records() if n.startswith("band:") and r["answer"].get("custom_option") == 10
            and r["case"]["dtype"] == "bf16" and 24 <= r["case"]["batch"] <= 41 and r["case"]["k"] >= 95]
    assert len(band) >= 40
    for name, rec in band:
        c = rec["case"]
        order = _order(rec)
        assert order is not None and order.lanes == 32, name
        pairs, tracers = probe_gemv.design_for(c["k"], c["dtype"])
        assert not (G.decode(rec["bits"], c["dtype"]) == G.predict(order.replace(lanes=16), c["k"], pairs, tracers)).all()
    o10 = dict(DOT, custom_option=10)
    assert [gemv_rule.batched_dot_order(o10, 200, "bf16", batch=b).lanes for b in (23, 24, 41, 42)] == [16, 32, 32, 16]


def test_the_grounded_entries_plan_by_default_and_a_candidate_would_not(monkeypatch):
    """Call 6's ground verified all 19 (244 fresh calls identical, its planted fault 38 of 261 differ): without
    BITORDER_UNVERIFIED they plan every record they planned under it. An entry set back to a candidate does not."""
    monkeypatch.delenv("BITORDER_UNVERIFIED", raising=False)
    assert sum(_order(r) is not None for _, r in records()) >= 790
    rows = gemv_rule.BATCHED_DOTS[(93, "fp16")]
    i = next(i for i, row in enumerate(rows) if row[0] == 2589)
    monkeypatch.setitem(gemv_rule.BATCHED_DOTS, (93, "fp16"), rows[:i] + [rows[i][:-1] + (False,)] + rows[i + 1:])
    assert gemv_rule.batched_dot_order(dict(DOT, custom_option=93), 3000, "fp16", batch=40) is None
    monkeypatch.setenv("BITORDER_UNVERIFIED", "1")
    assert gemv_rule.batched_dot_order(dict(DOT, custom_option=93), 3000, "fp16", batch=40).lanes == 32


def test_gemv_fit_lists_each_dots_launch_and_orders():
    """`bitorder probe gemv-fit --dots` (gemv_fit.dot_readings): the rows the batch bounds were read from. On the
    bf16 grid: K 43 runs 16 lanes at batch 20 and 4 at batch 24, its block's x dimension being the lane count."""
    from bitorder.cublas import gemv_fit
    recs = gemv_fit.load_records([os.path.join(RESULTS, PROBES[1])])
    rows = gemv_fit.dot_readings(recs, gemv_fit.rules_from(recs)["kept"])
    assert len(rows) == 240
    at = {(k, b): (block, orders) for _, _, k, b, block, orders in rows}
    assert at[(43, 20)] == ((16, 4, 1), [(16, None, 64, "down")])
    assert at[(43, 24)] == ((4, 16, 1), [(4, None, 64, "down")])
    assert all(block[0] in {o[0] for o in orders} for block, orders in at.values() if orders)


def test_dot_regions_recover_a_simulated_launch_map():
    """A simulated box whose lanes follow K and the batch (the bf16 option-10 shape: 2 lanes to K 40; 16 or 4 by
    batch to K 79; 16, 32, 16 past it): dot_regions returns one region per launch, each spanning only its rows."""
    from bitorder.cublas.gemv_fit import dot_regions

    def lanes(k, b):
        if k <= 40:
            return 2
        if k <= 79:
            return 16 if b <= 21 else 4
        return 32 if 24 <= b <= 41 else 16
    rows = [(k, b, [(lanes(k, b), None, 64, "down")]) for k in range(35, 95, 4) for b in (2, 8, 16, 20, 24, 32, 40, 48, 64, 80)]
    regions = dot_regions(rows)
    assert all(order[0] == lanes(k, b) for (k0, k1, b0, b1), order, _ in regions
               for k, b, _ in rows if k0 <= k <= k1 and b0 <= b <= b1)
    assert sum(n for *_, n in regions) == len(rows) and len(regions) <= 7


def test_gemv_fit_reads_the_stored_dots_into_regions_the_profile_agrees_with(monkeypatch):
    """On the 2026-12-03b records `gemv-fit` leaves no dots key undecided: option 10 bf16 becomes regions of K and
    batch, and each region's order is the packaged entry's wherever one holds a record of it."""
    from bitorder.cublas import gemv_fit
    recs = gemv_fit.load_records([os.path.join(RESULTS, p) for p in PROBES])
    rules = gemv_fit.rules_from(recs)
    assert rules["undecided"] == []
    regions = [e for e in rules["batched_dots"] if "batch_low" in e]
    assert {e["lanes"] for e in regions if (e["option"], e["dtype"]) == (10, "bf16")} == {2, 4, 16, 32}
    assert any((e["k_low"], e["k_high"], e["batch_low"], e["batch_high"], e["lanes"]) == (41, 79, 24, 80, 4)
               for e in regions)
    for e in regions:
        for r in recs:
            c = r["case"]
            if (r.get("answer") or {}).get("custom_option") == e["option"] and c["dtype"] == e["dtype"] \
                    and e["k_low"] <= c["k"] <= e["k_high"] and e["batch_low"] <= c["batch"] <= e["batch_high"]:
                order = _order(r)
                assert order is None or (order.lanes, order.chunk, order.cap) == (e["lanes"], e["chunk"], e["cap"])

BATCHES = os.path.join(ROOT, "benchmarks", "results", "2026-12-03d-gpu", "call1", "batches", "r", "gemv-unbounded",
                       "probe_gemv.json.gz")


def test_past_batch_62_only_option_10_and_the_entries_drawn_there_plan(monkeypatch):
    """The 2026-12-03d defect, kept fixed: the batch check of the entries that bounded no batch found three records
    past batch 62 whose launch was not the entry's (option 75 bf16 K 866 at 75: gemv2T, 128x1 blocks; K 1,512 at 79:
    16x8 blocks; option 93 fp16 K 2,646 at 65: 16x8), so the 32 lanes planned there predict other bits. Entries
    outside option 10 now hold to batch 62 unless they start past it; those three go to cuBLAS, and every other
    record of that probe an entry plans predicts its tracer bits."""
    import probe_gemv
    monkeypatch.delenv("BITORDER_UNVERIFIED", raising=False)
    with gzip.open(BATCHES, "rt") as f:
        recs = [r for r in json.load(f)["records"] if "error" not in r and r.get("launch") and r.get("answer")]
    wrong = [r for r in recs if (r["answer"]["custom_option"], r["case"]["dtype"], r["case"]["k"], r["case"]["batch"])
             in {(75, "bf16", 866, 75), (75, "bf16", 1512, 79), (93, "fp16", 2646, 65)}]
    assert len(wrong) == 3 and all(_order(r) is None for r in wrong)
    planned = 0
    for rec in recs:
        order = _order(rec)
        if order is None:
            continue
        c = rec["case"]
        pairs, tracers = probe_gemv.design_for(c["k"], c["dtype"])
        assert (G.decode(rec["bits"], c["dtype"]) == G.predict(order, c["k"], pairs, tracers)).all(), c
        planned += 1
    assert planned >= 200
    o75, o93, o81 = (dict(DOT, custom_option=o) for o in (75, 93, 81))
    assert gemv_rule.batched_dot_order(o75, 1512, "bf16", batch=62).lanes == 32
    assert gemv_rule.batched_dot_order(o75, 1512, "bf16", batch=63) is None
    assert gemv_rule.batched_dot_order(o93, 2646, "fp16", batch=65) is None
    assert gemv_rule.batched_dot_order(o81, 1249, "fp16", batch=65).lanes == 16      # drawn at those batches
    assert gemv_rule.batched_dot_order(dict(DOT, custom_option=10), 92, "fp16", batch=80) is not None
    for (option, dtype), rows in gemv_rule.BATCHED_DOTS.items():
        for low, high, b_low, b_high, order, verified in rows:
            assert option == 10 or b_low > 62 or (b_high is not None and b_high <= 62), (option, dtype, low)
