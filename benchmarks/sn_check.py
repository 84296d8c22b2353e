"""gemmSN's TN path ("rows": a gemv per row in gemv_rule.GEMMSN_TN) against cuBLAS on the GPU, byte for byte.

Fresh shapes where the TN kernel runs: M uniform in [2, 16], N log-uniform in [1, 16384], K
log-uniform in [1, 65536], torch's A row-major and B a transposed view, fp16 and bf16, torch.matmul
and F.linear without a bias. Each shape is planned (BITORDER_UNVERIFIED=1); those planned "rows"
are checked as the gate checks a case (gate_gemm.check_case: three fresh draws, narrow, wide,
cancelling), the rest counted by answer. Writes
DIR/sn_check.json; exit 1 on any difference.

    python benchmarks/sn_check.py --out DIR [--shapes N] [--budget S] [--seed S]   (GPU; gpu-run OUT sn-check)
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
        c = Case(rng.choice(("mm", "linear")), rng.choice(("fp16", "bf16")), rng.randint(2, 16), logu(1, 16384),
                 logu(1, 65536), 1, "nt", "sn-check")
        a, b, _ = draw(c, args.seed * 11 + i, "narrow")
        p = api.plan(a, b)
        answers[f"{p.path}:{p.answer['algo_id'] if p.answer else None}"] += 1
        if p.path != "rows":
            continue
        res = check_case(c, args.seed * 11 + i)      # the gate's own three draws and byte comparison
        bad += not res["ok"]
        rows.append(res)
        if not res["ok"]:
            print(f"[sn-check] DIFF {c}: {res['draws']}", flush=True)
    summary = {"shapes_planned": sum(answers.values()), "rows_checked": len(rows), "differ": bad,
               "answers": dict(answers), "seconds": round(time.time() - t0, 1), "device": torch.cuda.get_device_name()}
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "sn_check.json"), "w") as f:
        json.dump({"summary": summary, "rows": rows}, f)
    print(f"[sn-check] {json.dumps(summary)}", flush=True)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
