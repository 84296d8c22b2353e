"""The run-time split (split_k -1, segment-K: bitorder.cublas.segment_k) against every recorded call, on the CPU.

    BITORDER_UNVERIFIED=1 python benchmarks/fit_segment_k.py [--variant NAME] [--algo 42|41] [--quick]
    BITORDER_UNVERIFIED=1 python benchmarks/fit_segment_k.py --ground DIR [--variant NAME] [--draws cancel]

Records: replays the candidate or one of its variants on every split_k -1 record of algorithm 42 (32:
2026-12-02 call 3, 2026-12-02c call 4) or 41 (35: 2026-12-02d call 3): every sampled output of both draws
(--quick: the last sampled row only) and every recorded walk position. One line per record and a total.

--ground DIR: a ground_segment_k run that stored only differ counts (2026-12-02d call 2: the candidate
twin of then, its longer-first and s-always-8 variants against torch on the same calls). The inputs are
rebuilt from the draws' seeds; if the variant named here were torch, its outputs would differ from each of
those twins in exactly the recorded number of outputs per call and draw: the line says where they do not
(a necessary condition on the variant, not a bits comparison). Exit 1 when anything differs."""
from __future__ import annotations

import argparse
import json
import os
import sys

import numpy as np

from bitorder.cublas import segment_k as S
from bitorder.cublas.prober import load_records, operand_rows

HERE = os.path.dirname(os.path.abspath(__file__))
FILES = {42: ("results/2026-12-02-gpu/call3/survey-21-41-42.jsonl.gz",
              "results/2026-12-02c-gpu/call4/survey-41-42.jsonl.gz"),
         41: ("results/2026-12-02d-gpu/call3/survey-41.jsonl.gz",)}
GROUND = os.path.join(HERE, "results/2026-12-02d-gpu/call2")
GROUND_SEED = 20261840      # that run's --seed (its default then); call i drew with GROUND_SEED + i
VARIANTS = {
    "candidate": {},
    "pairwise_first": {"merge": "pairwise_first"},    # pairs from segment 0: differs where s is not 2^j
    "part0_last": {"merge": "part0_last"},            # 2026-12-02c's merge: the ground's cancel draws miss it
    "reverse": {"merge": "reverse"},
    "sequential": {"merge": "sequential"},            # segment 0 first: the walks exclude it
    "longer_first": {"longer": "first"},              # the longer segments first: one K tile moved
    "s_minus_1": {"s_shift": -1},
    "s_plus_1": {"s_shift": 1},
    "s_always_8": {"segments": 8},
    "rowmajor": {"order": "rowmajor"},                # algorithm 41: m-tiles ascending in every n-tile row
    # the three twins 2026-12-02d's ground compared with torch (its stored counts are against these)
    "ground_candidate": {"merge": "part0_last"},
    "ground_longer_first": {"merge": "part0_last", "longer": "first"},
    "ground_s_always_8": {"merge": "part0_last", "segments": 8},
}
GROUND_RUNS = {"ground_candidate": "ground_segment_k.json",
               "ground_longer_first": "ground_segment_k-longer_first.json",
               "ground_s_always_8": "ground_segment_k-s_always_8.json"}


def records(algo: int = 42) -> list:
    """The split_k -1 survey records of one algorithm (42: 32, 41: 35), in file order."""
    out = []
    for f in FILES[algo]:
        out += [r for r in load_records(os.path.join(HERE, f))
                if r.get("ran") and r["ran"][0]["algo_id"] == algo and r["ran"][0]["split_k"] == -1]
    return out


def check(rec: dict, variant: dict, quick: bool = False) -> tuple:
    """(sampled outputs wrong over both draws, walk positions wrong, walk positions compared)."""
    p = S.record_plan(rec, **variant)
    if p is None:
        raise SystemExit(f"no plan for {rec['case']} (BITORDER_UNVERIFIED=1 unset?)")
    rows = [rec["samples_narrow"]["rows"][-1]] if quick else None
    bits = sum(S.sample_mismatches(rec, p, kind, rows) for kind in ("narrow", "wide"))
    return (bits,) + S.walk_mismatches(rec, p)


# -- a counts-only ground run ------------------------------------------------------------------------

def ground_inputs(row: dict, seed: int, kind: str, cols=None) -> tuple:
    """A's checked rows (R, K) and B's columns `cols` (K, C; None: all), float64, as ground_segment_k drew
    them (gate_gemm.draw: the cancelling draw is the narrow one with A's second half of K negating its
    first against equal B rows)."""
    c, idx = row["case"], row["rows"]
    dk = "wide" if kind == "wide" else "narrow"
    a = operand_rows(c, seed, dk, "a", 0, idx)
    b = operand_rows(c, seed, dk, "b", 0, list(range(c["n"])) if cols is None else cols).T.copy()
    if kind == "cancel" and c["k"] >= 2:
        h = c["k"] // 2
        a[:, h:2 * h] = -a[:, :h]
        b[h:2 * h, :] = b[:h, :]
    return a, b


def twin_bits(row: dict, seed: int, kind: str, plans: dict) -> dict:
    """{name: int16 bits (rows x columns)} of each plan (None: skipped) for a ground row's checked rows,
    every column, of one draw: the operands rebuilt from the draw's hash, the chains computed once per
    (segment bounds, tile order) and merged per plan."""
    a, b = ground_inputs(row, seed, kind)
    cols = list(range(row["case"]["n"]))
    cache, out = {}, {}
    for name, p in plans.items():
        if p is None:
            continue
        key = (p.bounds, p.order)
        if key not in cache:
            cache[key] = S.chains(a, b, p, row["rows"], cols)
        out[name] = S.epilogue(S.merged(*cache[key], p.merge), p.plain, p.dtype).view(np.int16)
    return out


def ground_fingerprint(ground: str, variant: dict, calls=None, draws=("narrow", "wide", "cancel"),
                       against=tuple(GROUND_RUNS)) -> list:
    """[(call index, case, draw, twin, outputs the variant differs from the twin in, recorded count)]
    for a counts-only ground run (seed: GROUND_SEED plus the call's index)."""
    runs = {t: json.load(open(os.path.join(ground, GROUND_RUNS[t])))["rows"] for t in against}
    first = runs[against[0]]
    out = []
    for i in (range(len(first)) if calls is None else calls):
        row = first[i]
        c = row["case"]
        plans = {t: S.plan(row["answer"], c["m"], c["n"], c["k"], c["dtype"], **VARIANTS[t]) for t in against}
        plans["mine"] = S.plan(row["answer"], c["m"], c["n"], c["k"], c["dtype"], **variant)
        for kind in draws:
            bits = twin_bits(row, GROUND_SEED + i, kind, plans)
            for t in against:
                out.append((i, c, kind, t, int((bits["mine"] != bits[t]).sum()), runs[t][i]["draws"][kind]["differ"]))
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--variant", default="candidate", choices=sorted(VARIANTS))
    ap.add_argument("--algo", type=int, default=42, choices=sorted(FILES))
    ap.add_argument("--quick", action="store_true", help="sampled bits of the last sampled row only")
    ap.add_argument("--ground", nargs="?", const=GROUND, help="a counts-only ground run's folder")
    ap.add_argument("--draws", default="narrow,wide,cancel")
    args = ap.parse_args(argv)
    if args.ground:
        miss = 0
        res = ground_fingerprint(args.ground, VARIANTS[args.variant], draws=tuple(args.draws.split(",")))
        for i, c, kind, t, got, want in res:
            miss += got != want
            print(f"{i} {c['m']}x{c['n']}x{c['k']} {kind} vs {t}: differs in {got}, torch in {want}"
                  f"{'' if got == want else '  <-- MISMATCH'}", flush=True)
        print(f"[{args.variant}] ground counts reproduced {len(res) - miss} of {len(res)}")
        return 1 if miss else 0
    tb = tw = tn = 0
    for rec in records(args.algo):
        c = rec["case"]
        p = S.record_plan(rec, **VARIANTS[args.variant])
        if p is None:
            print(f"{c['m']}x{c['n']}x{c['k']}: no plan under this variant", flush=True)
            continue
        b, w, n = check(rec, VARIANTS[args.variant], args.quick)
        tb, tw, tn = tb + b, tw + w, tn + n
        print(f"{c['m']}x{c['n']}x{c['k']} tiles {p.mt}x{p.nt} left over {p.mt * p.nt - p.first_split} "
              f"segments {len(p.bounds) - 1}: bits wrong {b}, walk positions wrong {w} of {n}", flush=True)
    print(f"[{args.variant}, algorithm {args.algo}] sampled outputs wrong {tb}, walk positions wrong {tw} of {tn}")
    return 1 if tb or tw else 0


if __name__ == "__main__":
    sys.exit(main())
