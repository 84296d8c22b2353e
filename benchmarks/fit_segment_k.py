"""Algorithm 42's run-time split (split_k -1) against every recorded call, on the CPU.

    BITORDER_UNVERIFIED=1 python benchmarks/fit_segment_k.py [--variant NAME] [--quick]

Replays the candidate (bitorder.cublas.segment_k) or one of its variants on every algorithm-42
split_k -1 record of 2026-12-02 call 3 and 2026-12-02c call 4: every sampled output of both draws
(--quick: the left-over tile's row only) and every recorded walk position. Prints one line per
record and a total; exit 1 when anything differs."""
from __future__ import annotations

import argparse
import os
import sys

from bitorder.cublas import segment_k as S
from bitorder.cublas.prober import load_records

HERE = os.path.dirname(os.path.abspath(__file__))
FILES = ("results/2026-12-02-gpu/call3/survey-21-41-42.jsonl.gz",
         "results/2026-12-02c-gpu/call4/survey-41-42.jsonl.gz")
VARIANTS = {
    "candidate": {},
    "reverse": {"merge": "reverse"},                  # undecided by the records: fits too
    "sequential": {"merge": "sequential"},            # segment 0 first: the walks exclude it
    "longer_first": {"longer": "first"},              # the longer segments first: one K tile moved
    "s_minus_1": {"s_shift": -1},
    "s_plus_1": {"s_shift": 1},
    "s_always_8": {"segments": 8},                    # undecided by the records: fits too
}


def records() -> list:
    """The algorithm-42 split_k -1 survey records (32), in file order."""
    out = []
    for f in FILES:
        out += [r for r in load_records(os.path.join(HERE, f))
                if r.get("ran") and r["ran"][0]["algo_id"] == 42 and r["ran"][0]["split_k"] == -1]
    return out


def check(rec: dict, variant: dict, quick: bool = False) -> tuple:
    """(sampled outputs wrong over both draws, walk positions wrong, walk positions compared)."""
    p = S.record_plan(rec, **variant)
    if p is None:
        raise SystemExit(f"no plan for {rec['case']} (BITORDER_UNVERIFIED=1 unset?)")
    rows = [rec["case"]["m"] - 1] if quick else None
    bits = sum(S.sample_mismatches(rec, p, kind, rows) for kind in ("narrow", "wide"))
    return (bits,) + S.walk_mismatches(rec, p)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--variant", default="candidate", choices=sorted(VARIANTS))
    ap.add_argument("--quick", action="store_true", help="sampled bits of the left-over tile's row only")
    args = ap.parse_args(argv)
    tb = tw = tn = 0
    for rec in records():
        c = rec["case"]
        p = S.record_plan(rec, **VARIANTS[args.variant])
        if p is None:
            print(f"{c['m']}x{c['n']}x{c['k']}: no plan under this variant", flush=True)
            continue
        b, w, n = check(rec, VARIANTS[args.variant], args.quick)
        tb, tw, tn = tb + b, tw + w, tn + n
        print(f"{c['m']}x{c['n']}x{c['k']} left-over tiles {-(-c['m'] // 64) - 132} segments "
              f"{len(p.bounds) - 1}: bits wrong {b}, walk positions wrong {w} of {n}", flush=True)
    print(f"[{args.variant}] sampled outputs wrong {tb}, walk positions wrong {tw} of {tn}")
    return 1 if tb or tw else 0


if __name__ == "__main__":
    sys.exit(main())
