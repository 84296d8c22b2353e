"""The prober's CPU side for torch._scaled_mm (fp8 e4m3) records: twin replays, candidate rules.

An fp8 survey record (`bitorder probe survey --fp8`) holds what an fp16 record holds, with the
call's fp8 facts in its case (fast_accum, out, scaling, bias) and:
  samples_narrow / samples_wide / samples_cancel  sampled output bits of three seeded draws
      (cancel: the narrow draw with the second half of K negating the first, as gate_fp8 draws
      it), each under the fp32 scales in record["scales"][kind];
  walks   fp8 walks (walks.fp8_walk_specs: spec + run-length codes), scales 1.0, a zero bias.
A candidate rule for an fp8 split-K answer fixes: the span (granule, ceil/floor of K / split_k),
the partial type (fp32 or the output type) and merge order, the promotion interval of
use_fast_accum=False calls (128, 256, or none: a pure chain like fast accumulation) and whether
each part counts its intervals from its own start or from k = 0, whether scale_a * scale_b
multiplies the merged sum or each part before the merge, and where the bias goes. fast_accum
calls always run pure chains. The twin (bitorder.emulate) replays each candidate's GEMMDesc.
"""
from __future__ import annotations

import numpy as np

from ..desc import GEMMDesc
from ..draws import numpy_draw
from ..emulate import matmul
from . import walks as W
from .profile import BIAS_EPILOGUE

TID_A, TID_B, TID_BIAS = 1, 2, 3
FP8_DTYPES = ("e4m3", "e5m2")
DRAW_KINDS = ("narrow", "wide", "cancel")
SEED_OFFSET = {"narrow": 0, "wide": 1, "cancel": 2}
# Per draw: (scale_a, scale_b), fp32 values that are not powers of two, so a scale's place shows.
SCALES = {"narrow": (0.37, 1.7000001), "wide": (0.47, 1.7000001), "cancel": (0.57, 1.7000001)}
WALK_BUDGET = 1024

SPLIT_GRANULES = (16, 32, 64, 128, 256)
MERGES = (("fp32", "sequential"), ("out", "sequential"), ("fp32", "tree"), ("out", "serial_added"))
PROMOTIONS = (128, 256, None)


def is_fp8(rec: dict) -> bool:
    return rec["case"]["dtype"] in FP8_DTYPES


def scales_of(kind: str) -> tuple:
    """The fp32 scales a draw kind runs under, as exact Python floats of the fp32 values."""
    return tuple(float(np.float32(x)) for x in SCALES[kind])


def cancel_half(k: int) -> int:
    """The cancelling draw negates A's [h, 2h) against [0, h) (B repeated), h = K // 2 on 16."""
    return k // 2 // 16 * 16


def draw_rows(case: dict, seed: int, kind: str, which: str, idx) -> np.ndarray:
    """Rows of A (idx: row indices) or columns of B (idx: column indices) along K, float64, for
    one draw kind of an fp8 record (seed: the record's seed; the kind's offset is added here)."""
    from .prober import operand_rows
    s = seed + SEED_OFFSET[kind]
    x = operand_rows(case, s, "narrow" if kind == "cancel" else kind, which, 0, idx)
    if kind == "cancel" and case["k"] >= 32:
        h = cancel_half(case["k"])
        x[:, h:2 * h] = -x[:, :h] if which == "a" else x[:, :h]
    return x


def bias_values(case: dict, seed: int, kind: str, cols) -> np.ndarray | None:
    if not case.get("bias"):
        return None
    s = seed + SEED_OFFSET[kind]
    return numpy_draw(None, case["out"], s, TID_BIAS, "narrow" if kind == "cancel" else kind,
                      index=np.asarray(cols)).astype(np.float64)


def twin_samples(case: dict, seed: int, kind: str, rows, cols, desc: GEMMDesc) -> np.ndarray:
    """The twin's output bits (int16 or int32) at rows x cols for one draw of an fp8 record."""
    a = draw_rows(case, seed, kind, "a", rows)
    b = draw_rows(case, seed, kind, "b", cols)
    sa, sb = scales_of(kind)
    out = matmul(a, b.T, desc, bias_values(case, seed, kind, cols), case["out"], np.float32(sa), np.float32(sb))
    return out.view(np.int16 if out.itemsize == 2 else np.int32)


def sample_mismatches(rec: dict, desc: GEMMDesc, kind: str) -> int:
    """Sampled output elements of one draw the twin of desc gets wrong (0: every byte equal)."""
    s = rec["samples_" + kind]
    got = twin_samples(rec["case"], rec["seed"], kind, s["rows"], s["cols"], desc)
    return int((got != np.array(s["bits"][0], dtype=got.dtype)).sum())


def predicted_codes(desc: GEMMDesc, spec: dict, positions, out: str, bias: bool) -> list:
    """The codes the twin of desc gives for one fp8 walk (scales 1.0, a zero bias)."""
    rows, col = W.fp8_plant(desc.k, positions, spec["r_at"])
    got = matmul(rows, col[:, None], desc, np.zeros(1) if bias else None, out, np.float32(1), np.float32(1))
    return W.code(got[:, 0].astype(np.float64), W.FP8_R_OUT).tolist()


def walk_mismatches(rec: dict, desc: GEMMDesc, max_work: float = 3e7) -> int | None:
    """Walk positions where the twin disagrees with the record; None if none recorded or too costly."""
    c = rec["case"]
    total, seen = 0, False
    for w in rec.get("walks", []):
        pos = W.fp8_positions(c["k"], w["spec"])
        codes = W.runs_to_codes(pos, w["runs"])
        if not codes:
            continue
        if len(codes) * c["k"] > max_work:
            return None
        seen = True
        keys = sorted(codes)
        pred = predicted_codes(desc, w["spec"], keys, c["out"], bool(c.get("bias")))
        total += sum(p != codes[m] for p, m in zip(pred, keys))
    return total if seen else None


def record_mismatches(rec: dict, desc: GEMMDesc) -> tuple[int, int | None]:
    """(sampled elements wrong over every draw, walk positions wrong) for an fp8 record."""
    bad = sum(sample_mismatches(rec, desc, k) for k in DRAW_KINDS if "samples_" + k in rec)
    return bad, walk_mismatches(rec, desc)


def walk_cost(rec: dict) -> int:
    """How much twin work the record's walks take (records are tried cheapest first)."""
    k = rec["case"]["k"]
    return k * (sum(len(W.fp8_positions(k, w["spec"])) for w in rec.get("walks", [])) + 3)


# -- candidate rules ---------------------------------------------------------------------------

def candidate_rules(kind: tuple) -> list[dict]:
    """Every rule the prober considers for one fp8 answer kind (algo, named, split, scheme)."""
    algo, named, split, scheme = kind[:4]
    if not split:
        return [{"family": "plain", "promotion": p, "scale": "merge", "bias": b}
                for p in PROMOTIONS for b in ("bias_acc", "bias_out")]
    rules = []
    for g in SPLIT_GRANULES:
        for rnd in ("ceil", "floor"):
            for partial, order in MERGES:
                for p in PROMOTIONS:
                    for anchor in (("part", "k0") if p else ("part",)):
                        for scale in ("merge", "parts"):
                            for bias in ("bias_acc", "bias_out"):
                                rules.append({"family": "split_k", "granule": g, "round": rnd, "partial": partial,
                                              "merge_order": order, "promotion": p, "anchor": anchor,
                                              "scale": scale, "bias": bias})
    return rules


def rule_desc(rule: dict, answer: dict, k: int, out: str, bias: bool, fast_accum: bool):
    """The GEMMDesc a candidate rule gives for one fp8 call, or None where it does not apply
    (a floor-rounded span that leaves K uncovered)."""
    promotion = None if fast_accum else rule["promotion"]
    epi_bias = BIAS_EPILOGUE[rule["bias"]] if bias else ("round",)
    common = dict(operand_dtype="e4m3", k=k, instruction="wgmma", instruction_k=32, promotion=promotion)
    s = answer["split_k"]
    if rule["family"] == "plain":
        return GEMMDesc("plain", epilogue=("scale",) + epi_bias, **common)
    base = -(-k // s) if rule["round"] == "ceil" else k // s
    span = -(-max(base, 1) // rule["granule"]) * rule["granule"]
    if s * span < k and rule["round"] == "floor":
        return None
    if span >= k:   # one part: the plain chain, scaled once
        return GEMMDesc("plain", epilogue=("scale", "bias_acc", "round") if bias else ("scale", "round"), **common)
    scale = ("scale_parts",) if rule["scale"] == "parts" else ("scale",)
    return GEMMDesc("split_k", k_cuts=(span,), partial_dtype="fp32" if rule["partial"] == "fp32" else out,
                    merge_dtype="fp32", merge_order=rule["merge_order"], epilogue=scale + epi_bias,
                    promotion_anchor="k0" if promotion and rule["anchor"] == "k0" else None, **common)


def record_desc(rule: dict, rec: dict):
    c = rec["case"]
    return rule_desc(rule, rec["ran"][0], c["k"], c["out"], bool(c.get("bias")), bool(c["fast_accum"]))


def survives(rule: dict, rec: dict) -> bool:
    """Does the rule reproduce this fp8 record's walks and sampled bits on the twin?"""
    d = record_desc(rule, rec)
    if d is None:
        return False
    # the sampled bits first: three rows cost far less than a walk's thousand
    if any(sample_mismatches(rec, d, k) for k in DRAW_KINDS if "samples_" + k in rec):
        return False
    return not walk_mismatches(rec, d)


def describe_args(rec: dict) -> tuple:
    """ArchProfile.describe's (or resolve's) arguments for an fp8 record's call."""
    c = rec["case"]
    return rec["ran"][0], c["k"], c["dtype"], bool(c.get("bias")), bool(c["fast_accum"]), "tn", c["out"]


def describe_record(profile, rec: dict):
    """The profile's GEMMDesc for an fp8 record's call (None: it falls back)."""
    return profile.describe(*describe_args(rec))


# -- a simulated black box ---------------------------------------------------------------------

def sample_index(m: int, n: int) -> tuple[list, list]:
    """The rows and columns a survey samples (the same as the fp16 survey's)."""
    return sorted({0, m // 2, m - 1}), sorted(set(range(min(n, 24))) | set(range(max(0, n - 8), n)))


def simulate_record(case: dict, seed: int, answer: dict, desc: GEMMDesc) -> dict:
    """An fp8 survey record for `case` (FP8Case.to_dict()) as if cuBLAS ran `desc`: sampled bits
    of the three draws and the walks the survey would take, computed by the CPU twin."""
    rec = {"case": case, "seed": seed, "ran": [answer], "scales": {k: list(scales_of(k)) for k in DRAW_KINDS}}
    rows, cols = sample_index(case["m"], case["n"])
    for kind in DRAW_KINDS:
        bits = twin_samples(case, seed, kind, rows, cols, desc)
        rec["samples_" + kind] = {"batches": [0], "rows": rows, "cols": cols, "bits": [bits.tolist()]}
    rec["walks"] = []
    for spec in W.fp8_walk_specs(case["k"], answer["split_k"], WALK_BUDGET):
        pos = W.fp8_positions(case["k"], spec)
        codes = predicted_codes(desc, spec, pos, case["out"], bool(case.get("bias")))
        rec["walks"].append({"spec": spec, "runs": W.Walk(W.FP8_R_OUT, tuple(pos), tuple(codes)).runs()})
    return rec


# -- from surviving rules to an arch-profile entry ---------------------------------------------

ENTRY_FIELDS = ("family", "granule", "round", "partial", "merge_order", "promotion", "anchor", "scale", "bias")


def entry_from_rules(kind: tuple, survivors: list[dict], records: list[dict]) -> dict | None:
    """An fp8 arch-profile entry (verified: false: a GPU gate decides) for one split answer kind,
    or None when no rule survives, the survivors disagree on anything but the bias (which is
    then written "unverified": bias calls fall back), or the span rounds down."""
    if not survivors:
        return None
    algo, named, split, scheme = kind[:4]
    # With K a multiple of 16 (torch's rule) and at most 16 parts, ceil(K/s) and floor(K/s) round
    # up to the same span at every granule here, so records rarely part them: keep ceil, the
    # profile's span rule, when it survives.
    survivors = [r for r in survivors if r.get("round") == "ceil"] or survivors
    # Where every span is a multiple of the promotion interval (granule 128, promotion 128: the
    # 2026-11-30d survey's split answers), each part starts on a promotion boundary, so counting
    # the intervals from the part's start or from k = 0 is one rule: keep "part".
    if all(s.get("promotion") and s["granule"] % s["promotion"] == 0 for s in survivors):
        survivors = [r for r in survivors if r.get("anchor") == "part"] or survivors
    first = survivors[0]
    open_fields = {f for f in ENTRY_FIELDS if len({str(s.get(f)) for s in survivors}) > 1}
    if open_fields - {"bias"} or first.get("round") == "floor" or first["family"] != "split_k":
        return None
    match = {"algo_id": [algo], "stages_named": named, "split": True, "reduction_scheme": [scheme], "dtype": ["e4m3"]}
    desc = {"family": "split_k", "instruction": "wgmma", "instruction_k": 32, "partial_dtype": first["partial"],
            "merge_dtype": "fp32", "merge_order": first["merge_order"]}
    return {"name": f"probed-fp8-algo{algo}-{'named' if named else 'unnamed'}-split-s{scheme}", "match": match,
            "desc": desc, "span": {"rule": "round_up", "granule": first["granule"]},
            "bias": "unverified" if "bias" in open_fields else first["bias"], "verified": False,
            "fp8": {"promotion_slow": first["promotion"], "promotion_anchor": first["anchor"],
                    "scale": ["scale_parts" if first["scale"] == "parts" else "scale"]},
            "evidence": {"prober": f"{len(records)} fp8 records, {len(survivors)} surviving rules"}}
