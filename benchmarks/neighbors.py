"""Shapes near given cases: where cuBLAS's rare answers live, more calls for a candidate's ground check.

A candidate profile entry or gemv rule that the fuzz reaches a few times in 45,000 cases needs more
fresh calls before it becomes a default. cuBLASLt's heuristic answers by shape, so calls near a
case that got the rare answer often get it too. For each case this draws PER variants: each of
M, N, K scaled by a log-uniform factor in [1 / SPREAD, SPREAD] (rounded, at least 1; a dimension
of 1 stays 1, as do the case's op, dtype, layout, batch and group), half of them keeping K. Writes
{"not_reached_cases": [...]} for `gate_gemm.py --census --rerun` (which ones get the answer; CASES: a rerun, survey or gate file) and then
`fallback_cases.py` / `gate_gemm.py --rerun` (their ground check on fresh draws).

    python benchmarks/neighbors.py OUT.json CASES.json [CASES.json ...] [--per 300] [--spread 1.3] [--seed S]
"""
from __future__ import annotations

import argparse
import json
import math
import random


def cases_of(path: str) -> list[dict]:
    with open(path) as f:
        data = json.load(f)
    rows = data.get("mismatches") or data.get("fallback_cases") or []
    return data.get("not_reached_cases") or [m["case"] for m in rows]


def near(case: dict, per: int, spread: float, rng: random.Random) -> list[dict]:
    """`per` shapes near `case` (the case's own fields but M, N, K; dimensions of 1 kept)."""
    def scale(x: int) -> int:
        return x if x == 1 else max(1, round(x * math.exp(rng.uniform(-math.log(spread), math.log(spread)))))
    out = []
    for i in range(per):
        out.append(dict(case, m=scale(case["m"]), n=scale(case["n"]), k=case["k"] if i % 2 else scale(case["k"])))
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("files", nargs="+")
    ap.add_argument("--per", type=int, default=300)
    ap.add_argument("--spread", type=float, default=1.3)
    ap.add_argument("--seed", type=int, default=20261703)
    args = ap.parse_args(argv)
    rng, seen = random.Random(args.seed), {}
    for path in args.files:
        for case in cases_of(path):
            for c in near(case, args.per, args.spread, rng):
                seen.setdefault(json.dumps(c, sort_keys=True), c)
    with open(args.out, "w") as f:
        json.dump({"not_reached_cases": list(seen.values())}, f)
    print(f"[neighbors] {len(seen)} shapes -> {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
