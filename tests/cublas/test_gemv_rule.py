"""The gemv rule table (bitorder.cublas.gemv_rule) against the evidence it was read from: every
probe-fit record whose survey answer has a rule gets an order the fit kept (lanes, chunk in each
part, span, fold), and on the records pinned to one tree, that tree's layout."""
import gzip
import json
import os
import sys

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
    answers, checked = _answers(), 0
    for r in json.load(open(gemv_check.FIT))["records"]:
        a = answers.get((r["op"], r["dtype"], r["m"], r["n"], r["k"], r["layout"]))
        order = gemv_rule.order_for(a, r["k"], r["dtype"]) if a else None
        if order is None:
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
    assert checked == 23          # the calls the probe pinned; gemv2T (option 11) and option 72 have no rule


def test_no_rule_no_order():
    assert gemv_rule.order_for({"algo_id": 13, "custom_option": 11, "split_k": 8}, 1000, "fp16") is None
    assert gemv_rule.order_for({"algo_id": 66, "custom_option": 74, "split_k": 1}, 1000, "fp16") is None
    assert gemv_rule.order_for({"algo_id": 13, "custom_option": 75, "split_k": 132}, 5050, "bf16") is None
    o = gemv_rule.order_for({"algo_id": 13, "custom_option": 93, "split_k": 33}, 56886, "fp16")
    assert (o.lanes, o.chunk, o.span) == (32, 1, 1724)


def test_option_56_plans_only_unsplit_calls():
    # 2026-11-30i gemv-check --rule: option 56 differed on 14 of 14 split calls, identical on 34 unsplit
    assert gemv_rule.order_for({"algo_id": 13, "custom_option": 56, "split_k": 33}, 23273, "bf16") is None
    o = gemv_rule.order_for({"algo_id": 13, "custom_option": 56, "split_k": 1}, 52, "bf16")
    assert (o.lanes, o.chunk, o.span) == (2, None, None)
