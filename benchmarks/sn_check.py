"""The small-M SIMT paths against cuBLAS on the GPU, byte for byte: gemmSN ("rows": a gemv per row in
gemv_rule.GEMMSN_TN / GEMMSN_NN), magma ("seq": one chain per output, gemv_rule.MAGMA_ORDER) and
algorithm 14 with one output side from 2 to 64 ("dots": a dot per output).

Fresh shapes where those kernels run: M uniform in [2, 16], N log-uniform in [1, 16384], K
log-uniform in [1, 64] for half of them (magma's ground) and in [1, 65536] for the rest, all four
operand layouts (--layouts), fp16 and bf16, torch.matmul, F.linear and F.linear with a bias; every
fourth shape has M = 1 or N = 1 with the other side from 2 to 64, and a fifth of the rest are
batches of 2 to 8 (bmm). Each
shape is planned (BITORDER_UNVERIFIED=1); those planned "rows" or "seq" are checked as the gate
checks a case (gate_gemm.check_case: three fresh draws, narrow, wide, cancelling), the rest counted
by answer. Writes DIR/sn_check.json; exit 1 on any difference.

    python benchmarks/sn_check.py --out DIR [--shapes N] [--budget S] [--seed S] [--layouts nn] [--min-k K]
        [--paths rows]   (GPU; gpu-run OUT sn-check)
"""
from __future__ import annotations

import argparse
import collections
import json
import math
import os
import random
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "src"))
os.environ["BITORDER_UNVERIFIED"] = "1"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True)
    ap.add_argument("--shapes", type=int, default=6000)
    ap.add_argument("--budget", type=float, default=100)
    ap.add_argument("--seed", type=int, default=20261203)
    ap.add_argument("--layouts", default="nt,nn,tn,tt")
    ap.add_argument("--min-k", type=int, default=1, help="K log-uniform from this (all shapes; e.g. 257: gemmSN's "
                    "2-lane NN kernel past its default bound)")
    ap.add_argument("--paths", default="rows,seq,dots", help="the planned paths to check (the rest are counted)")
    args = ap.parse_args()
    import torch
    from gate_gemm import check_case, draw
    from bitorder.gemm import api
    from bitorder.gemm.shapes import Case
    rng = random.Random(args.seed)
    t0, rows, answers, bad = time.time(), [], collections.Counter(), 0
    logu = lambda lo, hi: max(lo, min(hi, int(math.exp(rng.uniform(math.log(lo), math.log(hi + 1))))))  # noqa: E731
    for i in range(args.shapes):
        if time.time() - t0 > args.budget:
            break
        m, n, batch, op = rng.randint(2, 16), logu(1, 16384), 1, rng.choice(("mm", "linear", "linear_bias"))
        if i % 4 == 3:                  # a gemv-like shape (algorithm 14's ground: one side 1, the other up to 64)
            m, n = (1, rng.randint(2, 64)) if rng.random() < 0.5 else (rng.randint(2, 64), 1)
        elif i % 5 == 4:                # a batch (bmm)
            batch, op = rng.randint(2, 8), "bmm"
        c = Case(op, rng.choice(("fp16", "bf16")), m, n, logu(args.min_k, 64 if i % 2 and args.min_k < 64 else 65536), batch,
                 rng.choice(args.layouts.split(",")), "sn-check")
        a, b, bias = draw(c, args.seed * 11 + i, "narrow")
        p = api.plan(a, b, bias)
        answers[f"{p.path}:{p.answer['algo_id'] if p.answer else None}"] += 1
        if p.path not in args.paths.split(","):
            continue
        res = check_case(c, args.seed * 11 + i)      # the gate's own three draws and byte comparison
        bad += not res["ok"]
        rows.append(res)
        if not res["ok"]:
            print(f"[sn-check] DIFF {res['path']} {c}: {res['draws']}", flush=True)
    summary = {"shapes_planned": sum(answers.values()), "checked": len(rows), "differ": bad,
               "checked_by": dict(collections.Counter(f"{r['path']}:{r['case']['layout']}:{r['case']['op']}" for r in rows)),
               "differ_by": dict(collections.Counter(f"{r['path']}:{r['case']['layout']}:{r['case']['op']}" for r in rows
                                                     if not r["ok"])),
               "answers": dict(answers), "seconds": round(time.time() - t0, 1), "device": torch.cuda.get_device_name()}
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "sn_check.json"), "w") as f:
        json.dump({"summary": summary, "rows": rows}, f)
    print(f"[sn-check] {json.dumps(summary)}", flush=True)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
