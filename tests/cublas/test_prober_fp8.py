"""The fp8 prober (torch._scaled_mm split-K) against simulated black boxes: CPU twins running known
split-K descriptors produce survey records; candidate elimination must recover each box's rule
and drop the wrong ones. No GPU: the survey's GPU side is only imported and asked for its list."""
import functools
import gzip
import json
import subprocess
import sys

import numpy as np
import pytest

from bitorder.cublas import prober_fp8 as P
from bitorder.cublas import walks as W
from bitorder.cublas.prober import answer_kind, by_kind, fit
from bitorder.cublas.profile import ArchProfile
from bitorder.desc import GEMMDesc
from bitorder.gemm.shapes import FP8Case, fp8_split_fuzz

# What nvjet's fp16 split-K does (round_up(ceil(K/s), 64), fp32 partials summed in K order), with
# fp8's promotion every 128 from each part's start and the scales on the merged sum.
NVJET_LIKE = {"family": "split_k", "granule": 64, "round": "ceil", "partial": "fp32", "merge_order": "sequential",
              "promotion": 128, "anchor": "part", "scale": "merge", "bias": "bias_acc"}
# Everything else changed: granule 32 (spans off multiples of 128, so the anchor shows), intervals
# from k = 0, each part scaled before the merge, partials in the output type, the bias after rounding.
OTHER = {**NVJET_LIKE, "granule": 32, "anchor": "k0", "scale": "parts", "partial": "out", "bias": "bias_out"}
# Slow accumulation that never promotes inside a split part; 256-granule spans; a tree merge.
NO_PROMOTION = {**NVJET_LIKE, "granule": 256, "promotion": None, "merge_order": "tree"}
# (M, N, K, split_k, use_fast_accum, out, bias): fp32 outputs show fp32-level differences (the
# scale's place), 4 and 5 parts part a tree from a sequential merge, a bias on the 16-bit outputs.
CASES = [(16, 32, 1200, 3, False, "bf16", True), (8, 48, 1008, 4, False, "fp32", False),
         (12, 32, 1520, 5, True, "fp16", True), (20, 32, 1360, 3, False, "fp16", False),
         (10, 40, 1104, 2, True, "fp32", False)]
KIND = (66, True, True, 2)


def answer(s):
    return {"algo_id": 66, "tile": "64x32", "stages": "128xAUTO", "split_k": s, "reduction_scheme": 2}


@functools.lru_cache(None)
def records_of(truth_items, cases=tuple(CASES), seed=40):
    truth = dict(truth_items)
    recs = []
    for i, (m, n, k, s, fast, out, bias) in enumerate(cases):
        case = FP8Case(m, n, k, fast, out, bias=bias).to_dict()
        desc = P.rule_desc(truth, answer(s), k, out, bias, fast)
        recs.append(P.simulate_record(case, seed + i, answer(s), desc))
    return recs


def records(truth):
    return records_of(tuple(sorted(truth.items())))


def test_fp8_walk_reads_parts_and_promotion_intervals():
    """r at 0 (2^-12 beside products of 2^15): pairs in r's interval or straddling an interval of
    the first part, or any part boundary, cancel r; the part1 walk's intervals show the anchor."""
    k, span = 1200, 448
    base = dict(operand_dtype="e4m3", k=k, instruction="wgmma", instruction_k=32, promotion=128, k_cuts=(span,),
                partial_dtype="fp32", merge_dtype="fp32", merge_order="sequential", epilogue=("scale", "round"))
    part, k0 = GEMMDesc("split_k", **base), GEMMDesc("split_k", promotion_anchor="k0", **base)
    spec = W.fp8_walk_specs(k, 3, 1024)[0]
    pos = W.fp8_positions(k, spec)
    codes = dict(zip(pos, P.predicted_codes(part, spec, pos, "bf16", False)))
    assert [m for m in pos if codes[m] == 0] == list(range(1, 128)) + [255, 383, 447, 895]
    p1 = W.fp8_walk_specs(k, 3, 1024)[1]
    assert p1["r_at"] == 592                                   # inside the second part [448, 896)
    pos = W.fp8_positions(k, p1)
    lost = {name: [m for m, c in zip(pos, P.predicted_codes(d, p1, pos, "bf16", False)) if c == 0 and m > 600]
            for name, d in (("part", part), ("k0", k0))}
    # r's own interval swallows it up to its end, then the next interval boundary, then the part's
    # end: [576, 704), 831 (from the part's start at 448) against [512, 640), 767 (from k = 0)
    assert lost == {"part": list(range(601, 704)) + [831, 895], "k0": list(range(601, 640)) + [767, 895]}


@pytest.mark.parametrize("truth", [NVJET_LIKE, pytest.param(OTHER, marks=pytest.mark.by_hand)], ids=["nvjet-like", "other"])
def test_fp8_split_rule_recovered_from_the_whole_candidate_space(truth):
    recs = records(truth)
    assert answer_kind(recs[0]["ran"][0]) == KIND and list(by_kind(recs)) == [KIND + ("fp8",)]
    rules = P.candidate_rules(KIND)
    assert len(rules) == 800 and truth in rules
    alive = fit(recs, rules)
    assert truth in alive
    # with K % 16 == 0 and at most 16 parts, ceil and floor give the same spans: nothing else stays open
    assert all({k: v for k, v in a.items() if a[k] != truth[k]} in ({}, {"round": "floor"}) for a in alive), alive


def test_slow_accumulation_without_promotion_recovered():
    truth = NO_PROMOTION
    decoys = [{**truth, **c} for c in ({"promotion": 128}, {"promotion": 256}, {"merge_order": "sequential"},
                                       {"granule": 128}, {"partial": "out"}, {"scale": "parts"})]
    assert fit(records(truth), [truth] + decoys) == [truth]


@pytest.mark.parametrize("change", [{"anchor": "k0"}, {"scale": "parts"}, {"partial": "out"}, {"granule": 32},
                                    {"promotion": 256}, {"bias": "bias_out"}, {"merge_order": "tree"}],
                         ids=lambda c: "-".join(map(str, c.values())))
def test_each_wrong_fp8_box_is_told_apart(change):
    """A box that runs the decoy rejects the nvjet-like rule, and the nvjet-like box rejects the decoy."""
    wrong = {**NVJET_LIKE, **change}
    assert fit(records(wrong), [NVJET_LIKE, wrong]) == [wrong]
    assert fit(records(NVJET_LIKE), [NVJET_LIKE, wrong]) == [NVJET_LIKE]


def test_fitted_fp8_rules_become_a_candidate_entry_that_describes_new_calls(monkeypatch):
    truth, recs = OTHER, records(OTHER)
    alive = fit(recs, [truth, {**truth, "round": "floor"}, {**truth, "anchor": "part"}])
    entry = P.entry_from_rules(KIND, alive, recs)
    assert entry["verified"] is False and entry["span"] == {"rule": "round_up", "granule": 32}
    assert entry["fp8"] == {"promotion_slow": 128, "promotion_anchor": "k0", "scale": ["scale_parts"]}
    prof = ArchProfile({"arch": "sm_90", "cublas": "13.1.0", "entries": [entry]})
    assert prof.describe(answer(4), 4000, "e4m3", True, False, out_dtype="bf16") is None   # a candidate
    monkeypatch.setenv("BITORDER_UNVERIFIED", "1")
    for k, s, fast, out, bias in ((4000, 4, False, "bf16", True), (2960, 7, True, "fp32", False),
                                  (640, 2, False, "fp16", False)):
        assert prof.describe(answer(s), k, "e4m3", bias, fast, out_dtype=out) == P.rule_desc(truth, answer(s), k, out,
                                                                                             bias, fast)
    assert P.entry_from_rules(KIND, [truth, {**truth, "granule": 64}], recs) is None       # unsettled: no entry
    no_bias = P.entry_from_rules(KIND, [truth, {**truth, "bias": "bias_acc"}], recs)
    assert no_bias["bias"] == "unverified"


def test_probe_fit_and_verify_on_simulated_fp8_records(tmp_path):
    path = tmp_path / "fp8.jsonl.gz"
    with gzip.open(path, "wt") as f:
        for r in records(NVJET_LIKE)[:3]:
            f.write(json.dumps(r) + "\n")
    run = lambda *a: subprocess.run([sys.executable, "-m", "bitorder", "probe", *a], capture_output=True, text=True)  # noqa: E731
    out, prof = tmp_path / "fit.json", tmp_path / "profile.json"
    p = run("fit", str(path), "--out", str(out), "--profile", str(prof))
    assert p.returncode == 0, p.stdout + p.stderr
    fitted = json.loads(out.read_text())
    assert fitted[0]["kind"] == list(KIND) + ["fp8"] and NVJET_LIKE in fitted[0]["survivors"]
    assert "reproduced" in p.stdout                 # the written profile, verified on the records
    # the shipped (verified) fp8 split entry rounds spans to 128, these simulated records to 64: verify must
    # call the shipped profile wrong on them
    p = run("verify", str(path))
    assert p.returncode != 0 and "WRONG" in p.stdout, p.stdout + p.stderr


def test_twin_samples_rebuild_the_gates_cancelling_draw():
    case = FP8Case(4, 16, 96, False, "bf16").to_dict()
    a = P.draw_rows(case, 3, "cancel", "a", [0, 1])
    b = P.draw_rows(case, 3, "cancel", "b", [0, 5])
    assert np.array_equal(a[:, 48:96], -a[:, :48]) and np.array_equal(b[:, 48:96], b[:, :48])
    assert not np.array_equal(a[:, :48], P.draw_rows(case, 3, "narrow", "a", [0, 1])[:, :48])   # seed + 2, not + 0


def test_survey_fp8_builds_its_case_list_without_a_gpu(tmp_path):
    from bitorder.cublas import survey_fp8   # imports on a CPU machine (torch.cuda is never touched)
    cases = fp8_split_fuzz(200, 5)
    assert len(cases) == 200 and all(c.k % 16 == 0 and c.n % 16 == 0 and c.k >= 1024 for c in cases)
    assert not any(c.bias for c in cases if c.out == "fp32") and {c.fast_accum for c in cases} == {True, False}
    assert cases[0].to_dict()["layout"] == "nt" and cases[0].group == "known-split"
    if not survey_fp8.cuda_ready():
        p = subprocess.run([sys.executable, "-m", "bitorder", "probe", "survey", "--fp8", "--out", str(tmp_path),
                            "--list-cases", "--fuzz", "50"], capture_output=True, text=True)
        assert p.returncode == 0, p.stderr
        listed = json.loads((tmp_path / "survey-cases.json").read_text())
        assert len(listed) == 50 and FP8Case(**listed[7]) == fp8_split_fuzz(50, 20261129)[7]
        p = subprocess.run([sys.executable, "-m", "bitorder", "probe", "survey", "--fp8", "--out", str(tmp_path)],
                           capture_output=True, text=True)
        assert p.returncode == 2 and "needs a CUDA GPU" in p.stderr


def test_the_planners_fp8_query_is_built_from_shapes():
    from bitorder.gemm import fp8
    q = fp8.lt_query(33, 64, 4096, "e4m3", "bf16", True, False)
    assert (q.transa, q.transb, q.m, q.n, q.k, q.lda, q.ldb, q.ldc) == (True, False, 64, 33, 4096, 4096, 4096, 64)
    assert q.fast_accum is False and q.scale_mode == "scalar" and q.bias_type == "bf16" and q.workspace == 1 << 20


@pytest.mark.parametrize("m,n", [(12, 48), (2, 64)], ids=["rows", "columns"])
def test_survey_records_what_the_prober_rebuilds_on_cpu_torch(monkeypatch, m, n):
    """The GPU survey's code run on CPU torch (its _scaled_mm is not the H200's arithmetic: only
    the record's layout is checked): the draws it makes are the ones prober_fp8 rebuilds, the walk
    box plants rows and the column where the walk says, and the record has every instrument."""
    from bitorder.cublas import ltlog, survey, survey_fp8
    monkeypatch.setattr(survey_fp8, "DEVICE", "cpu")
    case = FP8Case(m, n, 256, False, "bf16", bias=True)
    cd = case.to_dict()
    for kind in P.DRAW_KINDS:
        a, b, sa, sb, bias = survey_fp8.operands(case, 9, kind)
        assert np.array_equal(a.float().numpy()[[0, m - 1]], P.draw_rows(cd, 9, kind, "a", [0, m - 1]))
        assert np.array_equal(b.float().numpy()[:, [1, n - 1]].T, P.draw_rows(cd, 9, kind, "b", [1, n - 1]))
        assert np.array_equal(bias.float().numpy()[[0, 5]], P.bias_values(cd, 9, kind, [0, 5]))
        assert (float(sa), float(sb)) == P.scales_of(kind)
    box, cap = survey_fp8.walk_box(case, m >= 8 or m >= n)
    assert cap == (m if m >= 8 else n)
    rows = np.zeros((cap, 256))
    rows[np.arange(cap), np.arange(cap) % 256] = 1 + np.arange(cap) % 4      # small integers: exact anywhere
    col = np.full(256, 2.0)
    assert np.array_equal(box(rows, col), rows @ col)
    log = ltlog.LtLog("/nonexistent")
    rec, calls = survey_fp8.survey_case(case, 9, log, survey.attempt)
    assert len(calls) == 1 and rec["ran"] == [] and "planned_error" in rec       # no log, no GPU to plan on
    assert rec["query"]["k"] == 256 and rec["query"]["fast_accum"] is False
    for kind in P.DRAW_KINDS:
        s = rec["samples_" + kind]
        assert (s["rows"], s["cols"]) == P.sample_index(m, n) and np.asarray(s["bits"]).shape == (1, len(s["rows"]), len(s["cols"]))
    (w,) = rec["walks"]                              # no split answer logged: the r0 walk only
    assert w["spec"] == W.fp8_walk_specs(256, 1, P.WALK_BUDGET)[0]
    assert len(W.runs_to_codes(W.fp8_positions(256, w["spec"]), w["runs"])) == len(W.fp8_positions(256, w["spec"]))
    json.dumps(rec)
    # and the prober reads it: a plain fp8 descriptor replayed against it runs (CPU arithmetic: no verdict)
    rec["ran"] = [answer(1)]
    bad, walk_bad = P.record_mismatches(rec, P.rule_desc({"family": "plain", "promotion": 128, "scale": "merge",
                                                          "bias": "bias_acc"}, answer(1), 256, "bf16", True, False))
    assert bad >= 0 and walk_bad is not None


def test_anchor_is_one_rule_where_every_span_starts_on_a_promotion_boundary():
    """Granule 128 with promotion every 128: each part starts on a promotion boundary, so "part" and
    "k0" are the same intervals and the entry is written (the 2026-11-30d H200 fit's case); with a
    granule of 32 they differ and the kind stays unsettled."""
    settled = {**NVJET_LIKE, "granule": 128, "promotion": 128, "round": "ceil"}
    entry = P.entry_from_rules(KIND, [settled, {**settled, "anchor": "k0" if settled["anchor"] == "part" else "part"}],
                               records(settled))
    assert entry is not None and entry["fp8"]["promotion_anchor"] == "part"
    loose = {**settled, "granule": 32}
    assert P.entry_from_rules(KIND, [loose, {**loose, "anchor": "k0" if loose["anchor"] == "part" else "part"}],
                              records(loose)) is None


def test_the_shipped_fp8_split_entry_is_verified():
    """Fitted on the H200's survey (2026-11-30d), verified by the whole fp8 gate (2026-12-04), and the nvjet
    tail-drop condition left to cuBLAS (2026-12-02c: the fp8 gate's one mismatch)."""
    e = next(e for e in ArchProfile.load().entries if e.name == "probed-fp8-algo66-named-split-s2")
    assert e.verified is True and "2026-12-04-gpu" in e.evidence["gpu_gate"]
    assert {k: v for k, v in e.span.items() if k != "note"} == {"rule": "round_up", "granule": 128,
                                                               "unknown_when": "cublas_drops_tail"}
