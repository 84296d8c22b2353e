"""Designed cases inside the profile's candidate regions, for a ground (the census sends them to cuBLAS; the rerun
under BITORDER_UNVERIFIED=1 plans them on the candidates; scripts/gpu-calls/verify-candidates.py flips them).

    python benchmarks/design_regions.py OUT.json [--per 40] [--segk 150] [--seed 20262120] [--unbounded]

Per candidate batched-dot entry of profiles/sm90-cublas13.1-simt.json ("verified": false, with K bounds): --per
bmm calls 1x1xK, K log-uniform over the entry's K range, the batch uniform over its batch range (2-80 unbound),
the four layouts. Per candidate layout of algorithm 42's run-time split (segment_k.KERNELS[42]): --segk bf16 mm
calls where its reading splits (N <= 64, one wave of 132 tiles plus 1-20, K 4,096-32,768). Which of them cuBLAS
answers with the entry's option or algorithm is the census's question. Writes {"not_reached_cases": [...]}.
--unbounded: instead, --per cases in each *verified* dot entry that bounds no batch, the batch uniform over 2-80,
for a census and probe that look for launches switching with the batch inside it (2026-12-03c found one: option 10
bf16 from K 95 ran 32 lanes at batches 24-41 where its entries, grounded elsewhere, said 16).
"""
from __future__ import annotations

import argparse
import json
import math
import os
import random

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PROFILE = os.path.join(ROOT, "src", "bitorder", "cublas", "profiles", "sm90-cublas13.1-simt.json")
LAYOUTS = ("nn", "nt", "tn", "tt")


def dot_cases(entry: dict, per: int, rng: random.Random) -> list[dict]:
    lo, hi = entry["k_low"], entry["k_high"] or max(2 * entry["k_low"], 8192)   # open above: to 8,192
    b_lo, b_hi = entry.get("batch_low", 2), entry.get("batch_high") or 80
    return [{"op": "bmm", "dtype": entry["dtype"], "m": 1, "n": 1,
             "k": min(hi, max(lo, round(math.exp(rng.uniform(math.log(lo), math.log(hi + 1)))))),
             "batch": rng.randint(max(2, b_lo), b_hi), "layout": rng.choice(LAYOUTS), "group": "fuzz"}
            for _ in range(per)]


def segk_cases(layouts, count: int, rng: random.Random) -> list[dict]:
    from bitorder.cublas.segment_k import KERNELS, SM_COUNT
    t = KERNELS[42]["tile"]
    lo, hi = KERNELS[42]["rem"]
    return [{"op": "mm", "dtype": "bf16", "m": rng.randint((SM_COUNT + lo - 1) * t + 1, (SM_COUNT + hi) * t),
             "n": rng.randint(1, t), "k": round(math.exp(rng.uniform(math.log(4096), math.log(32768)))),
             "batch": 1, "layout": layouts[i % len(layouts)], "group": "fuzz"} for i in range(count)]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--per", type=int, default=40, help="cases per candidate batched-dot entry")
    ap.add_argument("--segk", type=int, default=150, help="cases over algorithm 42's candidate layouts")
    ap.add_argument("--seed", type=int, default=20262120)
    ap.add_argument("--unbounded", action="store_true", help="verified dot entries with no batch bound instead")
    args = ap.parse_args(argv)
    rng = random.Random(args.seed)
    dots = json.load(open(PROFILE))["batched_dots"]
    if args.unbounded:
        entries = [e for e in dots if e["verified"] and "k_low" in e and "batch_low" not in e and "batch_high" not in e]
    else:
        entries = [e for e in dots if not e["verified"] and "k_low" in e]
    cases = [c for e in entries for c in dot_cases(e, args.per, rng)]
    from bitorder.cublas.segment_k import KERNELS
    if KERNELS[42]["candidate_layouts"] and args.segk and not args.unbounded:
        cases += segk_cases(KERNELS[42]["candidate_layouts"], args.segk, rng)
    what = "verified dot entries with no batch bound" if args.unbounded else \
        "candidate dot entries, algorithm 42's candidate layouts"
    json.dump({"note": f"design_regions.py --per {args.per} --segk {args.segk} --seed {args.seed}"
                       f"{' --unbounded' if args.unbounded else ''}: {len(entries)} {what}", "not_reached_cases": cases},
              open(args.out, "w"), indent=0)
    print(f"[design] {len(cases)} cases ({len(entries)} dot entries) -> {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
