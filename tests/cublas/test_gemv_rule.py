"""The gemv rule table (bitorder.cublas.gemv_rule) against the evidence it was read from: every
probe-fit record whose survey answer has a rule gets an order the fit kept (lanes, chunk in each
part, span, fold), and on the records pinned to one tree, that tree's layout."""
import gzip
import json
import os
import sys

import pytest

from bitorder.cublas import gemv_design as G
from bitorder.cublas import gemv_rule

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
sys.path.insert(0, os.path.join(ROOT, "benchmarks"))
import gemv_check  # noqa: E402

RESULTS = os.path.join(ROOT, "benchmarks", "results")


def _answers():
    out = {}
    with gzip.open(os.path.join(RESULTS, "2026-11-29-survey", "survey.jsonl.gz"), "rt") as f:
        for line in f:
            r = json.loads(line)
            for a in r.get("ran") or []:
                if str(a.get("algo_id")) == "13":
                    c = r["case"]
                    out[(c["op"], c["dtype"], c["m"], c["n"], c["k"], c["layout"])] = a
    return out


def test_the_rule_keeps_to_what_the_probe_fit_kept():
    answers, checked, gemv2t = _answers(), 0, []
    for r in json.load(open(gemv_check.FIT))["records"]:
        a = answers.get((r["op"], r["dtype"], r["m"], r["n"], r["k"], r["layout"]))
        order = gemv_rule.order_for(a, r["k"], r["dtype"]) if a else None
        if order is None or (r["op"] == "linear_bias" and not r["survivors"]):
            continue          # a bias call no order x bias placement fit: the rule plans bias-free calls only
        if order.block:
            gemv2t.append(r["i"])   # outside the fit's candidates: replayed bytewise below
            continue
        s = r["settled"]
        first = order.span or r["k"]
        chunk = order.chunk_of(first)
        assert str(order.lanes) in s["lanes"] and str(order.span) in s["span"] and order.fold in s["fold"], r["i"]
        assert str(chunk) in s["chunk"] or (chunk == -(-first // order.lanes) and "None" in s["chunk"]), r["i"]
        if s.get("distinct_trees") == 1:     # the one tree the probe read: the same lanes, parts and chunks
            kept = gemv_check.parse_order(r["examples"][0])
            assert (kept.lanes, kept.span, kept.chunk_of(first)) == (order.lanes, order.span, chunk), r["i"]
        checked += 1
    assert checked == 23          # the calls the probe pinned
    assert gemv2t                 # gemv2T calls the 2026-11-30d fit could not read: the replay test covers them
    recs = json.load(open(os.path.join(RESULTS, "2026-11-30d-components", "probe_gemv.json")))["records"]
    for i in gemv2t:
        c = recs[i]["case"]
        order = gemv_rule.order_for(answers[(c["op"], c["dtype"], c["m"], c["n"], c["k"], c["layout"])], c["k"], c["dtype"])
        assert _replays(recs[i], order), i


def _replays(rec, order):
    """Whether the twin under `order` gives the probe record's bytes on its designed rows (and its
    bias call's, either placement)."""
    import probe_gemv
    pairs, tracers = probe_gemv.design_for(rec["case"]["k"], rec["case"]["dtype"])
    return bool(probe_gemv.confirm(rec, [order], pairs, tracers))


def test_gemv2t_rule_replays_every_probed_gemv2t_call():
    """Option 11 (gemv2T): lanes 16 strided, chains banked every 512, lanes summed in order: the
    twin gives the recorded bytes of all six 2026-11-30i calls (K 366 to 1026, either dtype);
    without the banking, the four with K > 512 differ."""
    recs = json.load(open(os.path.join(RESULTS, "2026-11-30i-gemv", "probe", "probe_gemv.json")))["records"]
    gemv2t = [r for r in recs if r.get("answer") and r["answer"]["custom_option"] == 11]
    assert len(gemv2t) == 6
    for rec in gemv2t:
        c = rec["case"]
        order = gemv_rule.order_for(rec["answer"], c["k"], c["dtype"], outputs=max(c["m"], c["n"]))
        assert order.block == 512 and _replays(rec, order), c
        assert _replays(rec, order.replace(block=None)) == (c["k"] <= 512), c


def test_no_rule_no_order():
    assert gemv_rule.order_for({"algo_id": 13, "custom_option": 31, "split_k": 1}, 1000, "fp16") is None
    assert gemv_rule.order_for({"algo_id": 13, "custom_option": 26, "split_k": 1}, 1000, "bf16") is None
    assert gemv_rule.order_for({"algo_id": 66, "custom_option": 74, "split_k": 1}, 1000, "fp16") is None
    assert gemv_rule.order_for({"algo_id": 13, "custom_option": 75, "split_k": -1}, 5050, "bf16", outputs=4) is None
    for outputs in (1, 3, 4):     # option 75's split calls whatever the outputs (2 or 3 since 2026-12-01e)
        o = gemv_rule.order_for({"algo_id": 13, "custom_option": 75, "split_k": 132}, 5050, "bf16", outputs=outputs)
        assert (o.lanes, o.chunk, o.span) == (32, 1, 39)
    o = gemv_rule.order_for({"algo_id": 13, "custom_option": 93, "split_k": 33}, 56886, "fp16")
    assert (o.lanes, o.chunk, o.span) == (32, 1, 1724)


def test_option_56_chunks_of_64_in_parts():
    # 2026-11-30i: the split calls differed under "contiguous" on 14 of 14 fresh shapes; the probe
    # read lanes 2, chunks of 64 in every part (the last too), parts of ceil(K / split_k) (records
    # i0-i3); cap 64 keeps the unsplit calls (contiguous under 64 per lane) as they were
    o = gemv_rule.order_for({"algo_id": 13, "custom_option": 56, "split_k": 33}, 13341, "fp16")
    assert (o.lanes, o.chunk_of(o.span), o.span) == (2, 64, 405)
    o = gemv_rule.order_for({"algo_id": 13, "custom_option": 56, "split_k": 33}, 4990, "bf16")
    assert (o.span, o.chunk_of(4990 - 32 * 152)) == (152, 64)
    o = gemv_rule.order_for({"algo_id": 13, "custom_option": 56, "split_k": 33}, 3000, "bf16")
    assert (o.span, o.chunk_of(3000 - 32 * 91)) == (91, 46)      # a short span: ceil(91 / 2), unread
    o = gemv_rule.order_for({"algo_id": 13, "custom_option": 56, "split_k": 1}, 52, "bf16")
    assert (o.lanes, o.chunk_of(52), o.span) == (2, 26, None)


def test_option_10_lanes_follow_the_outputs():
    """32 lanes up to the bound the old rule was measured to (MAX_OUTPUTS); past it gemvNSP's lane count
    for the output count (2026-12-01e): the calls that had differed under 32 lanes (8,566 fp16 and
    14,533 bf16) run 26 and 16 lanes."""
    ans = {"algo_id": 13, "custom_option": 10, "split_k": 1}
    assert gemv_rule.order_for(ans, 145, "fp16", outputs=8106).lanes == 32
    assert gemv_rule.order_for(ans, 264, "fp16", outputs=8566).lanes == 26
    assert gemv_rule.order_for(ans, 145, "bf16", outputs=6535).lanes == 32
    assert gemv_rule.order_for(ans, 72, "bf16", outputs=14533).lanes == 12
    assert [gemv_rule.nsp_lanes(n) for n in (8448, 8449, 9505, 10561, 12673, 14785, 15841)] == [32, 26, 24, 20, 12, 16, 32]


def test_the_last_part_keeps_the_spans_chunk():
    # 2026-11-30j: option 92 fp16, K = 23597 in 16 parts of 1475 (the last 1472) differed on the
    # cancelling draw under chunks of ceil(part / 32) (46 in the last part): the span's 47 instead
    o = gemv_rule.order_for({"algo_id": 13, "custom_option": 92, "split_k": 16}, 23597, "fp16")
    assert (o.span, o.chunk_of(1475), o.chunk_of(1472)) == (1475, 47, 47)
    lanes = o.lane_of(1472)
    assert lanes[46] == 0 and lanes[47] == 1


@pytest.mark.parametrize("run,least", [("2026-11-30i-gemv/probe", 20), ("2026-11-30j-gemv/probe", 6),
                                       ("2026-11-30j-gemv/probe-2", 6), ("2026-12-01b-gemv", 17)])
def test_the_rule_keeps_to_what_a_probe_read(run, least):
    """Every pinned call of a probe by answer (2026-11-30i, 30j): the rule's order has the summation
    tree the fit kept."""
    fit = json.load(open(os.path.join(RESULTS, run, "probe_gemv_fit.json")))["records"]
    recs = json.load(open(os.path.join(RESULTS, run, "probe_gemv.json")))["records"]
    checked = 0
    for r, rec in zip(fit, recs):
        c = rec["case"]
        if "answer" not in rec:
            continue
        order = gemv_rule.order_for(rec["answer"], c["k"], c["dtype"], outputs=max(c["m"], c["n"]))
        if order is None or not r.get("pinned"):
            continue
        kept = gemv_check.parse_order(r["examples"][0])
        intern = {}                 # the same summation tree as the order the fit kept
        assert G.tree_key(kept, c["k"], intern) == G.tree_key(order, c["k"], intern), r["i"]
        checked += 1
    assert checked >= least


def test_every_2026_12_01b_record_with_a_rule_replays():
    """The probe of the answers the table held no order for (2026-12-01b): each record whose answer
    now has a rule (gemv2T split calls, options 12, 43, 51, 57, 67, 69, 101, 103) gets the twin's
    bytes on its designed rows under the rule's order (option 10 past its output bound with gemvNSP's
    lane count for it, 2026-12-01e)."""
    recs = json.load(open(os.path.join(RESULTS, "2026-12-01b-gemv", "probe_gemv.json")))["records"]
    ruled = 0
    for rec in recs:
        c = rec["case"]
        order = gemv_rule.order_for(rec["answer"], c["k"], c["dtype"], outputs=max(c["m"], c["n"]))
        if order is None:
            continue
        assert _replays(rec, order), (c, str(order))
        ruled += 1
    assert ruled >= 21


def test_rules_of_the_2026_12_01c_probe_replay_its_records():
    """Every 2026-12-01c probe record (the whole gate's algorithm-13 fallbacks, batched ones carrying
    the design in every entry) whose answer has one of that probe's rules gets the rule's order, the
    order predicts every record's tracer bits and gives one record per key's designed bytes; option
    75 bf16's split calls too, with 2 or 3 outputs as with more (2026-12-01e)."""
    import probe_gemv
    with gzip.open(os.path.join(RESULTS, "2026-12-01c-gemv", "probe_gemv.json.gz"), "rt") as f:
        recs = [r for r in json.load(f)["records"] if "error" not in r]
    replayed, bytewise = 0, set()
    for rec in recs:
        c, a = rec["case"], rec["answer"]
        outputs = max(c["m"], c["n"])
        key = (int(a["custom_option"]), c["dtype"])
        split = int(a.get("split_k") or 1) > 1
        if not (key in gemv_rule.by_probe("2026-12-01c") or (split and key == (75, "bf16"))):
            continue
        if c["batch"] > 1 and outputs == 1:
            continue                              # batched dots: planned cuBLAS (api._gemv_candidate)
        order = gemv_rule.order_for(a, c["k"], c["dtype"], outputs=outputs)
        if c["op"] == "linear_bias" and c["m"] == 1:        # cuBLASLt's bias path: the bias by the split
            order = order.replace(bias=gemv_rule.lt_bias_placement(a))
        pairs, tracers = probe_gemv.design_for(c["k"], c["dtype"])
        assert (G.decode(rec["bits"], c["dtype"]) == G.predict(order, c["k"], pairs, tracers)).all(), c
        if (key, split) not in bytewise:      # the twin's bytes: one record per key (CI time)
            assert _replays(rec, order), c
            bytewise.add((key, split))
        replayed += 1
    assert replayed >= 60 and len(bytewise) >= 17


def test_rules_of_the_2026_12_01d_probe_replay_their_records(monkeypatch):
    """The 2026-12-01d probe's rules: twelve defaults since the 2026-12-01e ground check
    (gemv_rule.by_probe("2026-12-01d")), 33 fp16 since 2026-12-01f's (a 2026-12-01f entry, with two more
    records), and 114 fp16 since 2026-12-02's (93 fresh calls); each record they name gets its order,
    which predicts the record's tracer bits, and every fifth key's first record its designed bytes (CI time)."""
    import probe_gemv
    with gzip.open(os.path.join(RESULTS, "2026-12-01d-ground", "probe_gemv.json.gz"), "rt") as f:
        recs = json.load(f)["records"]
    assert not gemv_rule.by_probe("2026-12-01d", verified=False)
    replayed = 0
    rules = {**gemv_rule.by_probe("2026-12-01d"), (33, "fp16"): gemv_rule.RULES[(33, "fp16")]}
    assert len(rules) == 14 and all(key in gemv_rule.RULES for key in gemv_rule.by_probe("2026-12-01d", verified=True))
    for i, (key, rule) in enumerate(rules.items()):
        names = rule.records
        for j, name in enumerate(n for n in names if n.startswith("d")):
            rec = recs[int(name[1:])]
            c, a = rec["case"], rec["answer"]
            assert (int(a["custom_option"]), c["dtype"]) == key
            order = gemv_rule.order_for(a, c["k"], c["dtype"], outputs=max(c["m"], c["n"]))
            pairs, tracers = probe_gemv.design_for(c["k"], c["dtype"])
            assert (G.decode(rec["bits"], c["dtype"]) == G.predict(order, c["k"], pairs, tracers)).all(), c
            if i % 5 == 0 and j == 0:
                assert probe_gemv.confirm(rec, [order], pairs, tracers), c
            replayed += 1
    assert replayed >= 17


def _probe_records(paths):
    for path in paths:
        full = os.path.join(RESULTS, path)
        with (gzip.open(full, "rt") if path.endswith(".gz") else open(full)) as f:
            for i, rec in enumerate(json.load(f)["records"]):
                if "error" not in rec and rec.get("launch"):
                    yield f"{path.split('/')[0]}:{i}", rec


PROBES = ("2026-12-01d-ground/probe_gemv.json.gz", "2026-12-01c-gemv/probe_gemv.json.gz", "2026-12-01b-gemv/probe_gemv.json",
          "2026-11-30j-gemv/probe-10/probe_gemv.json", "2026-11-30i-gemv/probe/probe_gemv.json",
          "2026-11-30d-components/probe_gemv.json")


def test_gemvnsp_past_its_bound_replays_every_record():
    """Option 10 (gemvNSP_kernel) with more outputs than MAX_OUTPUTS (the default since the 2026-12-01e
    ground check): the order planned from the output count alone (gemv_rule.nsp_lanes) has the lanes
    every recorded launch ran (blockDim.y: 32, 26, 24, 20, 12, 16) and predicts every designed record's
    tracer bits (lanes not a power of two, the count-down butterfly padded); split calls past the
    bound plan nothing."""
    import probe_gemv
    answer = {"algo_id": 13, "custom_option": 10, "split_k": 1}
    assert gemv_rule.order_for(answer, 300, "bf16", outputs=9000).lanes == 26
    assert gemv_rule.order_for(dict(answer, split_k=4), 300, "bf16", outputs=9000) is None
    lanes_seen, replayed = set(), 0
    for name, rec in _probe_records(PROBES):
        if "gemvNSP" not in rec["launch"][0].get("name", ""):
            continue
        c, y = rec["case"], rec["launch"][0]["block"][1]
        outputs = max(c["m"], c["n"])
        assert gemv_rule.nsp_lanes(outputs) == y, (name, outputs, y)
        order = gemv_rule.order_for(answer, c["k"], c["dtype"], outputs=outputs)
        if outputs <= gemv_rule.MAX_OUTPUTS[(10, c["dtype"])]:
            assert order.lanes == 32          # the default rule
        assert (order.lanes, order.chunk, order.fold) == (y, 4, "down"), name
        pairs, tracers = probe_gemv.design_for(c["k"], c["dtype"])
        assert (G.decode(rec["bits"], c["dtype"]) == G.predict(order, c["k"], pairs, tracers)).all(), name
        lanes_seen.add(y)
        replayed += 1
    assert replayed >= 30 and {20, 24, 26, 12, 32} <= lanes_seen
    # a planted fault: the padded butterfly read as 32 lanes fails records with other lane counts
    wrong = 0
    for name, rec in _probe_records(PROBES[:1]):
        c = rec["case"]
        if "gemvNSP" in rec["launch"][0].get("name", "") and rec["launch"][0]["block"][1] != 32 and c["k"] > 100:
            pairs, tracers = probe_gemv.design_for(c["k"], c["dtype"])
            o32 = gemv_rule.order_for(answer, c["k"], c["dtype"], outputs=100)
            wrong += not (G.decode(rec["bits"], c["dtype"]) == G.predict(o32, c["k"], pairs, tracers)).all()
    assert wrong >= 2


def test_option_75_split_calls_with_two_or_three_outputs_replay():
    """Option 75 bf16 split calls (F.linear M = 1 on cuBLASLt's bias path) with 2 or 3 outputs: the
    rule's order (32 lanes strided over each part of ceil(K / split), parts in K order, the bias on
    the rounded output) predicts every record's tracer bits and, through probe_gemv.confirm, its
    designed and bias bytes (the fitter had compared 4 bias rows with 2 or 3: fixed 2026-12-01e).
    The default since the 2026-12-01e ground check (42 fresh calls identical)."""
    import probe_gemv
    from bitorder.emulate import simt
    replayed = 0
    for name, rec in _probe_records(PROBES[:2]):
        c, a = rec["case"], rec.get("answer") or {}
        if (a.get("custom_option"), c["dtype"]) != (75, "bf16") or int(a.get("split_k") or 1) < 2 or max(c["m"], c["n"]) > 3:
            continue
        order = gemv_rule.order_for(a, c["k"], c["dtype"], outputs=max(c["m"], c["n"]))
        order = order.replace(bias=gemv_rule.lt_bias_placement(a))
        assert order.span == -(-c["k"] // int(a["split_k"])) and order.bias == "out"
        pairs, tracers = probe_gemv.design_for(c["k"], c["dtype"])
        assert (G.decode(rec["bits"], c["dtype"]) == G.predict(order, c["k"], pairs, tracers)).all(), name
        if replayed % 8 == 0:                 # bytes (CI time: every eighth record)
            kept = probe_gemv.confirm(rec, [order.replace(bias="acc")], pairs, tracers)
            assert kept and {o.bias for o in kept} == {"out"}, name     # (fma and mul_add alike)
        replayed += 1
    assert replayed >= 14
    assert gemv_rule.order_for({"algo_id": 13, "custom_option": 75, "split_k": 132}, 5000, "bf16", outputs=3).span == 38
    assert gemv_rule.order_for({"algo_id": 13, "custom_option": 75, "split_k": -1}, 5000, "bf16", outputs=3) is None
    assert simt.GemvOrder(lanes=26, chunk=4).lanes == 26     # any lane count folds "down"


def test_rules_of_the_2026_12_01e_refit_replay_their_records():
    """The refit's rules (defaults since the 2026-12-01f ground check): gemv2N options 1 and 2 (2 or 4
    contiguous lanes added in order, to K = 64) and batches of dots answered with options 72, 75 and 94
    (their rule; option 75 from the smallest K seen right): each named record's tracer bits, and the
    designed bytes of one record a key; other batched dots (option 10's, whose kernel changes with K)
    and option 75 fp16 at K = 910 (differed on the H200) stay unplanned."""
    import probe_gemv
    recs = {}
    for name, rec in _probe_records(PROBES[:2]):
        recs[("d" if name.startswith("2026-12-01d") else "c") + name.split(":")[1]] = rec
    a1 = {"algo_id": 13, "custom_option": 1, "split_k": 1}
    assert gemv_rule.order_for(a1, 65, "bf16") is None                 # past gemv2N's K bound
    a75 = {"algo_id": 13, "custom_option": 75, "split_k": 1}
    assert gemv_rule.batched_dot_order(a75, 910, "fp16") is None and gemv_rule.batched_dot_order(a75, 1329, "fp16")
    # (since 2026-12-03b K 910 plans in batches of 2-47 dots: 32 capped lanes, not the option's rule, which differed)
    o910 = gemv_rule.batched_dot_order(a75, 910, "fp16", batch=10)
    assert (o910.lanes, o910.chunk, o910.cap) == (32, None, 64) and o910 != gemv_rule.order_for(a75, 910, "fp16")
    names = [n for rule in gemv_rule.by_probe("2026-12-01e refit").values() for n in rule.records]
    dots = [n for n, r in recs.items() if r["case"].get("batch", 1) > 1 and r["case"]["m"] == r["case"]["n"] == 1
            and gemv_rule.batched_dot_order(r.get("answer"), r["case"]["k"], r["case"]["dtype"]) is not None]
    assert len(names) == 6 and len(dots) >= 12
    bytewise = set()
    for name in names + dots:
        rec = recs[name]
        c, a = rec["case"], rec["answer"]
        key = (int(a["custom_option"]), c["dtype"])
        order = (gemv_rule.batched_dot_order(a, c["k"], c["dtype"]) if name in dots else
                 gemv_rule.order_for(a, c["k"], c["dtype"], outputs=max(c["m"], c["n"])))
        pairs, tracers = probe_gemv.design_for(c["k"], c["dtype"])
        assert (G.decode(rec["bits"], c["dtype"]) == G.predict(order, c["k"], pairs, tracers)).all(), name
        if key not in bytewise:
            assert probe_gemv.confirm(rec, [order], pairs, tracers), name
            bytewise.add(key)
    # (fp16 K 16-43 has entries since 2026-12-02h; bf16 K 35-94 is still unread: its lanes follow the batch)
    assert gemv_rule.batched_dot_order({"algo_id": 13, "custom_option": 10, "split_k": 1}, 32, "fp16") is not None
    assert gemv_rule.batched_dot_order({"algo_id": 13, "custom_option": 10, "split_k": 1}, 50, "bf16") is None


def test_rules_of_the_2026_12_01f_probe_replay_their_records(monkeypatch):
    """The 2026-12-01f probe's rules (defaults since its ground check; option 73 fp16 since 2026-12-02's;
    82 bf16 and option 75 fp16's dots at K 800-1,328 still candidates, BITORDER_UNVERIFIED=1): every named record's tracer bits
    under its key's order, the designed bytes of one record a key, and the batched dots' orders by K
    (option 10's 2 and 16 lanes, 74's rule, 86 bf16's, 75 fp16 at K = 910 contiguous)."""
    import probe_gemv
    recs = {"f" + name.split(":")[1]: rec for name, rec in _probe_records(("2026-12-01f-probe/probe_gemv.json.gz",))}
    some = {"algo_id": 13, "custom_option": 82, "split_k": 2}
    assert gemv_rule.order_for(some, 3850, "bf16") is None and gemv_rule.batched_dot_order(
        {"algo_id": 13, "custom_option": 75, "split_k": 1}, 910, "fp16") is None
    assert gemv_rule.batched_dot_order({"algo_id": 13, "custom_option": 10, "split_k": 1}, 40, "bf16") is None
    a42 = {"algo_id": 13, "custom_option": 42, "split_k": 1}           # its cap unread past 64 a lane
    assert gemv_rule.order_for(a42, 512, "fp16") is not None and gemv_rule.order_for(a42, 513, "fp16") is None
    monkeypatch.setenv("BITORDER_UNVERIFIED", "1")
    names = [n for rule in gemv_rule.by_probe("2026-12-01f").values() for n in rule.records if n.startswith("f")]
    dots = [n for n, r in recs.items() if r["case"]["m"] == r["case"]["n"] == 1 and r["case"].get("batch", 1) > 1]
    assert len(names) == 54 and len(dots) >= 10
    bytewise, planned_dots = set(), 0
    for name in names + dots:
        rec = recs[name]
        c, a = rec["case"], rec["answer"]
        if name in dots:
            order = gemv_rule.batched_dot_order(a, c["k"], c["dtype"])
            if order is None:            # K 2 and 4 (records that pin nothing): no candidate
                continue
            planned_dots += 1
        else:
            order = gemv_rule.order_for(a, c["k"], c["dtype"], outputs=max(c["m"], c["n"]))
        pairs, tracers = probe_gemv.design_for(c["k"], c["dtype"])
        assert (G.decode(rec["bits"], c["dtype"]) == G.predict(order, c["k"], pairs, tracers)).all(), name
        key = (int(a["custom_option"]), c["dtype"], name in dots)
        if key not in bytewise:
            assert probe_gemv.confirm(rec, [order], pairs, tracers), name
            bytewise.add(key)
    assert planned_dots >= 8


def test_rules_of_the_2026_12_02_probe_replay_their_records(monkeypatch):
    """The 2026-12-02 probe's rules (defaults since its ground check: 281 fresh calls identical): option 107
    bf16 and the batched dots of options 10, 92, 93, 100, 106 over the K ranges recorded. Every record with
    an order planned predicts its tracer bits, one record a key its designed bytes; outside the recorded
    ranges (option 10 bf16 K 35-94), none."""
    import probe_gemv
    recs = dict(_probe_records(("2026-12-02-gpu/call3/gemv-probe/probe_gemv.json.gz",)))
    dot10 = {"algo_id": 13, "custom_option": 10, "split_k": 1}
    assert gemv_rule.batched_dot_order(dot10, 20, "bf16") is not None
    assert gemv_rule.batched_dot_order(dot10, 60, "bf16") is None
    planned, bytewise = 0, set()
    for name, rec in recs.items():
        c, a = rec["case"], rec.get("answer")
        if not a:
            continue
        dot = c["m"] == c["n"] == 1 and c.get("batch", 1) > 1
        order = (gemv_rule.batched_dot_order(a, c["k"], c["dtype"]) if dot else
                 gemv_rule.order_for(a, c["k"], c["dtype"], outputs=max(c["m"], c["n"])))
        if order is None:
            continue
        planned += 1
        pairs, tracers = probe_gemv.design_for(c["k"], c["dtype"])
        assert (G.decode(rec["bits"], c["dtype"]) == G.predict(order, c["k"], pairs, tracers)).all(), name
        key = (int(a["custom_option"]), c["dtype"], dot)
        if key not in bytewise:
            assert probe_gemv.confirm(rec, [order], pairs, tracers), name
            bytewise.add(key)
    assert planned >= 90 and len(bytewise) == 8


def test_batches_of_dots_past_the_largest_batch_shown_identical_go_to_cublas():
    """2026-12-02g call 4 (H200): option 10 fp16's dots at K 92 in a batch of 100 differed from the K 44-147
    entry's 16 lanes; batches to 80 were identical. Past MAX_DOT_BATCH the rule answers None (cuBLAS)."""
    dot10 = {"algo_id": 13, "custom_option": 10, "split_k": 1}
    assert gemv_rule.batched_dot_order(dot10, 92, "fp16", batch=gemv_rule.MAX_DOT_BATCH) is not None
    assert gemv_rule.batched_dot_order(dot10, 92, "fp16", batch=100) is None
    assert gemv_rule.batched_dot_order(dot10, 92, "fp16") is not None      # (batch 1: the default)
