"""The prober's CPU side: test candidate descriptors against what a GPU recorded.

A survey record (benchmarks/survey_cublas.py) holds, for one call: the cuBLASLt
answer the call ran (from cuBLAS's own log), +L/-L/r walks along K, and sampled
output bits for seeded draws (bitorder.draws), which the CPU rebuilds element by
element. A candidate GEMMDesc survives a record when the CPU twin reproduces the
walks code for code and the sampled bits byte for byte; elimination keeps the
candidates that survive every record of an answer (paper section 4).

Everything here runs without a GPU, against recorded data or a simulated black box.
"""
from __future__ import annotations

import gzip
import json
from typing import Iterable

import numpy as np

from ..desc import GEMMDesc
from ..draws import numpy_draw
from ..emulate import accumulate, epilogue
from . import walks as W
from .profile import BIAS_EPILOGUE, layout_of

TID_A, TID_B, TID_BIAS = 1, 2, 3  # the survey's tensor ids for A, B and the bias


def load_records(path: str) -> list[dict]:
    """The JSON lines of a survey file (.jsonl or .jsonl.gz)."""
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        return [json.loads(line) for line in f if line.strip()]


def operand_rows(case: dict, seed: int, kind: str, which: str, batch: int, idx) -> np.ndarray:
    """Rows of A (idx: row indices) or columns of B (idx: column indices) of a survey call,
    rebuilt from the draw's hash, as float64 (len(idx), K), whatever the operand's layout."""
    M, N, K, B = case["m"], case["n"], case["k"], case["batch"]
    if which == "a":
        rows, cols, trans, tid = M, K, case["layout"][0] == "t", TID_A
    else:
        rows, cols, trans, tid = K, N, case["layout"][1] == "t", TID_B
    sc = rows if trans else cols                     # the stored row length
    base = batch * rows * cols if B > 1 else 0
    i = np.asarray(idx)[:, None]
    k = np.arange(K)[None, :]
    if which == "a":
        flat = base + (k * sc + i if trans else i * sc + k)
    else:
        flat = base + (i * sc + k if trans else k * sc + i)
    return numpy_draw(None, case["dtype"], seed, tid, kind, index=flat).astype(np.float64)


def sample_mismatches(record: dict, desc: GEMMDesc, kind: str = "narrow") -> int:
    """How many sampled output elements the CPU twin of `desc` gets wrong (0: all bytes equal)."""
    case = record["case"]
    s = record["samples_" + kind]
    seed = record["seed"] + (1 if kind == "wide" else 0)
    bias = None
    if case["op"] == "linear_bias":
        bias = numpy_draw(None, case["dtype"], seed, TID_BIAS, kind, index=np.array(s["cols"])).astype(np.float64)
    bad = 0
    for bi, b in enumerate(s["batches"]):
        a = operand_rows(case, seed, kind, "a", b, s["rows"])
        bc = operand_rows(case, seed, kind, "b", b, s["cols"])
        acc = accumulate(a, bc.T, desc, bias)
        out = epilogue(acc, desc, case["dtype"], bias)
        got = out.view(np.int16 if out.itemsize == 2 else np.int32)
        bad += int((got != np.array(s["bits"][bi], dtype=got.dtype)).sum())
    return bad


def walk_codes(record: dict, which: str) -> dict:
    """{position: code} of a recorded walk (which: 'small' or 'edge'), positions rebuilt as the survey chose them."""
    c = record["case"]
    runs = record.get("walk_" + which)
    if runs is None:
        return {}
    use_rows = c["m"] >= 8 or c["m"] >= c["n"]
    cap = c["m"] if use_rows else c["n"]
    codes = {}
    it = iter(runs)
    cur = next(it, None)
    for m in W.walk_positions(c["k"], max(256, cap * 24)):
        if not 0 < m < c["k"] - 1:
            continue
        while cur is not None and m > cur[2]:
            cur = next(it, None)
        if cur is not None and cur[1] <= m <= cur[2]:
            codes[m] = cur[0]
    return codes


def predicted_walk(desc: GEMMDesc, positions: Iterable[int], r: float, out_dtype: str) -> dict:
    """The codes the CPU twin of `desc` gives for a walk (a zero bias where the epilogue has one)."""
    positions = list(positions)
    rows = W.pair_rows(desc.k, positions, r)
    bias = np.zeros(1) if any(s.startswith("bias") for s in desc.epilogue) else None
    acc = accumulate(rows, np.ones((desc.k, 1)), desc, bias)
    out = epilogue(acc, desc, out_dtype, bias)[:, 0].astype(np.float64)
    return dict(zip(positions, W.code(out, r).tolist()))


def walk_mismatches(record: dict, desc: GEMMDesc, max_work: float = 3e7) -> int | None:
    """Positions where the twin's walks disagree with the recorded ones; None if too costly or unrecorded."""
    total, seen = 0, False
    for which, r in (("small", W.R_SMALL), ("edge", W.R_EDGE)):
        codes = walk_codes(record, which)
        if not codes:
            continue
        if len(codes) * desc.k > max_work:
            return None
        seen = True
        pred = predicted_walk(desc, sorted(codes), r, record["case"]["dtype"])
        total += sum(pred[m] != codes[m] for m in codes)
    return total if seen else None


def eliminate(records: list[dict], candidates: dict) -> dict:
    """{name: surviving?} for candidate descriptor makers (record -> GEMMDesc) over records."""
    alive = dict.fromkeys(candidates, True)
    for rec in records:
        for name, make in candidates.items():
            if not alive[name]:
                continue
            d = make(rec)
            ok = all(sample_mismatches(rec, d, kind) == 0 for kind in ("narrow", "wide") if "samples_" + kind in rec)
            wm = walk_mismatches(rec, d)
            alive[name] = ok and (wm is None or wm == 0)
    return alive


# -- candidate elimination: from records of one kind of answer to a profile entry ---------------

SPLIT_GRANULES = (1, 8, 16, 32, 64, 128)
K_MAJOR_GRANULES = (64,)   # a coarser granule when K % 64 == 0 and an operand runs along K
K_STEPS = (16, 32, 64, 128, 256)


def answer_kind(answer: dict) -> tuple:
    """What an arch-profile entry keys on: algorithm, named stages or not, split or not, scheme."""
    return (answer["algo_id"], answer["stages"] not in ("UNDEFINED", ""), answer["split_k"] > 1,
            answer["reduction_scheme"] if answer["split_k"] > 1 else 0)


def candidate_rules(kind: tuple, stages: str | None = None) -> list[dict]:
    """Every descriptor rule the prober considers for one kind of answer (paper section 4):
    instruction_k, where the short K turn falls, and for splits the span rounding, the
    partial type, the merge and where the bias goes."""
    algo, named, split, scheme = kind
    tails = [("last", None)] + [("first", s) for s in K_STEPS]
    rules = []
    for ik in (16, 8):
        for tail, step in tails:
            if step is not None and step % ik:
                continue
            base = {"instruction_k": ik, "k_tail": tail, "k_step": step}
            if not split:
                for bias in ("bias_acc", "bias_out"):
                    rules.append({**base, "family": "plain", "bias": bias})
                continue
            for g in SPLIT_GRANULES:
                for k_major in [None] + [x for x in K_MAJOR_GRANULES if x > g]:
                    for rnd in ("ceil", "floor"):
                        for partial, order in (("fp32", "sequential"), ("out", "sequential"), ("out", "serial_added")):
                            # bias_last: added by the last part to its sum with the running output
                            # (algorithm 21's s16816 serial splits, 2026-12-01f)
                            for bias in ("bias_acc", "bias_out") + (("bias_last",) if order == "serial_added" else ()):
                                rules.append({**base, "family": "split_k", "granule": g, "k_major": k_major,
                                              "round": rnd, "partial": partial, "merge_order": order, "bias": bias})
    return rules


def rule_desc(rule: dict, answer: dict, k: int, dtype: str, bias: bool, layout: str | None = None):
    """The GEMMDesc a candidate rule gives for one call, or None if the rule does not apply
    (a floor-rounded span that would leave K uncovered, say). layout: cuBLAS's op letters,
    which a k_major rule reads (the span's granule when K % 64 == 0 and layout != "nt")."""
    instr = "wgmma" if rule["instruction_k"] == 16 and rule["k_tail"] == "last" else "mma_sync"
    common = dict(operand_dtype=dtype, k=k, instruction=instr, instruction_k=rule["instruction_k"],
                  k_tail=rule["k_tail"], k_step=rule["k_step"])
    epi_plain = ("bias_acc", "round") if bias else ("round",)
    epi = BIAS_EPILOGUE[rule["bias"]] if bias else ("round",)
    if rule["family"] == "plain":
        return GEMMDesc("plain", epilogue=epi, **common)
    s, g = answer["split_k"], rule["granule"]
    if rule.get("k_major") and k % 64 == 0:
        if layout is None:
            return None
        if layout != "nt":
            g = rule["k_major"]
    base = -(-k // s) if rule["round"] == "ceil" else k // s
    span = -(-max(base, 1) // g) * g
    if s * span < k and rule["round"] == "floor":
        return None
    if span >= k:
        return GEMMDesc("plain", epilogue=epi_plain, **common)
    return GEMMDesc("split_k", k_cuts=(span,), partial_dtype="fp32" if rule["partial"] == "fp32" else dtype,
                    merge_dtype="fp32", merge_order=rule["merge_order"], epilogue=epi, **common)


def record_layout(rec: dict) -> str:
    """cuBLAS's op letters for a survey record: its query's, or torch's layout letters reversed
    (torch's B is cuBLAS's A; every surveyed call agrees)."""
    return layout_of(rec["query"]) if rec.get("query") else rec["case"]["layout"][::-1]


def _fp8(rec: dict) -> bool:
    """An fp8 (torch._scaled_mm) record: prober_fp8 replays and fits it."""
    return rec["case"].get("dtype") in ("e4m3", "e5m2")


def describe_record(profile, rec: dict):
    """The profile's GEMMDesc for the call a survey record ran (None: the call falls back)."""
    return resolve_record(profile, rec)[1]


def resolve_record(profile, rec: dict):
    """(the profile entry that decides the call a survey record ran, its GEMMDesc): ArchProfile.resolve."""
    if _fp8(rec):
        from . import prober_fp8
        return profile.resolve(*prober_fp8.describe_args(rec))
    c = rec["case"]
    return profile.resolve(rec["ran"][0], c["k"], c["dtype"], c["op"] == "linear_bias", layout=record_layout(rec))


def record_mismatches(rec: dict, desc: GEMMDesc) -> tuple[int, int | None]:
    """(sampled output elements the twin of desc gets wrong over both draws, walk positions it
    gets wrong): (0, 0 or None) when desc reproduces the record."""
    if _fp8(rec):
        from . import prober_fp8
        return prober_fp8.record_mismatches(rec, desc)
    return sample_mismatches(rec, desc, "narrow") + sample_mismatches(rec, desc, "wide"), walk_mismatches(rec, desc)


def _record_desc(rule, rec):
    c = rec["case"]
    return rule_desc(rule, rec["ran"][0], c["k"], c["dtype"], c["op"] == "linear_bias", record_layout(rec))


def survives(rule: dict, rec: dict) -> bool:
    """Does the rule reproduce this record's walks and sampled bits on the twin?"""
    if _fp8(rec):
        from . import prober_fp8
        return prober_fp8.survives(rule, rec)
    d = _record_desc(rule, rec)
    if d is None:
        return False
    wm = walk_mismatches(rec, d)
    if wm:
        return False
    return all(sample_mismatches(rec, d, kind) == 0 for kind in ("narrow", "wide") if "samples_" + kind in rec)


def fit(records: list[dict], rules: list[dict] | None = None, progress=None) -> list[dict]:
    """The rules that survive every record (records of one answer kind), cheapest records first.

    A rule dies at the first record it fails, so most of the space costs one emulation.
    `progress(i, n)` is called as candidates are decided.
    """
    if not records:
        return []
    if _fp8(records[0]):
        from . import prober_fp8
        rules = prober_fp8.candidate_rules(answer_kind(records[0]["ran"][0])) if rules is None else rules
        order = sorted(records, key=prober_fp8.walk_cost)
    else:
        rules = candidate_rules(answer_kind(records[0]["ran"][0])) if rules is None else rules
        order = sorted(records, key=lambda r: r["case"]["k"] * (len(walk_codes(r, "small")) + 3))
    alive = []
    for i, rule in enumerate(rules):
        if all(survives(rule, rec) for rec in order):
            alive.append(rule)
        if progress:
            progress(i + 1, len(rules))
    return alive


def by_kind(records: list[dict]) -> dict:
    """Records grouped by answer kind (only those whose log named the answer that ran); fp8
    records form kinds of their own, keyed with a fifth element "fp8"."""
    out = {}
    for r in records:
        if r.get("ran"):
            out.setdefault(answer_kind(r["ran"][0]) + (("fp8",) if _fp8(r) else ()), []).append(r)
    return out


# -- a simulated black box: survey records from a known descriptor, for testing the prober -----

def simulate_record(case: dict, seed: int, answer: dict, desc_for) -> dict:
    """A survey record for `case` as if cuBLAS ran `desc_for(k)` (a GEMMDesc maker): sampled
    output bits of the two seeded draws and both walks, computed by the CPU twin."""
    rec = {"case": case, "seed": seed, "ran": [answer]}
    M, N, K = case["m"], case["n"], case["k"]
    bias_on = case["op"] == "linear_bias"
    d = desc_for(K)
    for kind in ("narrow", "wide"):
        s = seed + (1 if kind == "wide" else 0)
        rows = sorted({0, M // 2, M - 1})
        cols = sorted(set(range(min(N, 24))) | set(range(max(0, N - 8), N)))
        a = operand_rows(case, s, kind, "a", 0, rows)
        b = operand_rows(case, s, kind, "b", 0, cols)
        bias = numpy_draw(None, case["dtype"], s, TID_BIAS, kind, index=np.array(cols)).astype(np.float64) if bias_on else None
        out = epilogue(accumulate(a, b.T, d, bias), d, case["dtype"], bias)
        rec["samples_" + kind] = {"batches": [0], "rows": rows, "cols": cols,
                                  "bits": [out.view(np.int16).tolist()]}
    use_rows = M >= 8 or M >= N
    cap = M if use_rows else N
    pos = [m for m in W.walk_positions(K, max(256, cap * 24)) if 0 < m < K - 1]
    for which, r in (("small", W.R_SMALL), ("edge", W.R_EDGE)):
        codes = predicted_walk(d, pos, r, case["dtype"])
        runs = []
        for m in pos:
            c = codes[m]
            if runs and runs[-1][0] == c:
                runs[-1][2] = m
            else:
                runs.append([c, m, m])
        rec["walk_" + which] = runs
    return rec


# -- from surviving rules to arch-profile entries ------------------------------------------------

ENTRY_FIELDS = ("instruction_k", "k_tail", "k_step", "family", "granule", "k_major", "partial", "merge_order", "bias")


def entry_from_rules(kind: tuple, survivors: list[dict], records: list[dict], dtypes=("fp16", "bf16")) -> dict | None:
    """An arch-profile entry (profile JSON) for one answer kind, or None when the surviving rules
    disagree on something the entry needs (then more records must decide) or none survives.

    Fields the records leave open but every survivor shares are written as they are; a named
    stages' K step is written as "stages" when it equals every record's stages K."""
    if not survivors:
        return None
    algo, named, split, scheme = kind
    fields = [f for f in ENTRY_FIELDS if f in survivors[0]]
    first = survivors[0]
    step_open = len({s["k_step"] for s in survivors}) > 1
    if any(len({str(s.get(f)) for s in survivors}) > 1 for f in fields if f != "k_step") or first.get("round") == "floor":
        return None
    step = first["k_step"]
    if named:
        ks = {int(str(r["ran"][0]["stages"]).split("x")[0]) for r in records}
        if len(ks) == 1 and (step in ks or step_open):
            step = "stages"
        elif step_open:
            return None
    elif step_open:
        return None
    instr = "wgmma" if first["instruction_k"] == 16 and first["k_tail"] == "last" else "mma_sync"
    desc = {"family": first["family"], "instruction": instr, "instruction_k": first["instruction_k"],
            "k_tail": first["k_tail"], "k_step": step}
    match = {"algo_id": [algo], "stages_named": named, "split": split, "dtype": list(dtypes)}
    entry = {"name": f"probed-algo{algo}-{'named' if named else 'unnamed'}-{'split' if split else 'plain'}-s{scheme}",
             "match": match, "desc": desc, "bias": first["bias"]}
    if split:
        match["reduction_scheme"] = [scheme]
        desc.update(partial_dtype=first["partial"], merge_dtype="fp32", merge_order=first["merge_order"])
        entry["span"] = {"rule": "round_up", "granule": first["granule"]}
        if first.get("k_major"):
            entry["span"]["k_major"] = {"k_multiple_of": 64, "granule": first["k_major"]}
    entry["evidence"] = {"prober": f"{len(records)} records, {len(survivors)} surviving rules"}
    return entry


# -- gemv (algorithm 13): the SIMT twin (emulate.simt) against a record ---------------------------

def gemv_mismatches(rec: dict, order) -> tuple[int, int]:
    """(sampled outputs over both draws, walk positions) that the SIMT twin of `order` (a
    emulate.simt.GemvOrder) gets wrong on a gemv record: (0, 0) when it reproduces the record."""
    from ..emulate import simt
    case = rec["case"]
    bad = 0
    for kind in ("narrow", "wide"):
        s = rec["samples_" + kind]
        seed = rec["seed"] + (1 if kind == "wide" else 0)
        bias = None
        if case["op"] == "linear_bias":
            bias = numpy_draw(None, case["dtype"], seed, TID_BIAS, kind, index=np.array(s["cols"]))
        for bi, b in enumerate(s["batches"]):
            a = operand_rows(case, seed, kind, "a", b, s["rows"])
            bc = operand_rows(case, seed, kind, "b", b, s["cols"])
            out = simt.epilogue(simt.accumulate(a, bc.T, order), order, case["dtype"], bias)
            bad += int((out.view(np.int16) != np.array(s["bits"][bi], dtype=np.int16)).sum())
    walked = 0
    for which in ("small", "edge"):
        codes = walk_codes(rec, which)
        if codes:
            pos = sorted(codes)
            walked += int((simt.walk_codes(order, case["k"], pos) != np.array([codes[m] for m in pos])).sum())
    return bad, walked
