"""Where cuBLASLt adds F.linear's bias on its gemv path (M = 1, algorithm 13): probe (GPU), no fit.

torch 2.11 sends F.linear(x, W, bias) with x of one row through cuBLASLt's BIAS epilogue; when the
heuristic answers algorithm 13 the bias meets the gemv either in fp32 before the one rounding
("acc") or after it ("out": a second rounding), and the 2026-11-30j rule runs saw both, with no
option or layout splitting them. Here every fresh call records what could decide it: the Lt
answer itself (all its fields), the bias-free call's answer, the kernels the call launched (name,
grid, block: a separate epilogue kernel would say "out"), and which placement under the rule
table's order for the Lt answer returns torch's bytes on three draws (narrow, wide, cancelling).

    python benchmarks/probe_ltbias.py --out DIR [--shapes N] [--budget S] [--seed S]   (GPU; gpu-run OUT ltbias-probe)
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


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True)
    ap.add_argument("--shapes", type=int, default=3000)
    ap.add_argument("--budget", type=float, default=90)
    ap.add_argument("--seed", type=int, default=20261232)
    args = ap.parse_args()
    import torch
    import torch.nn.functional as F
    from gate_gemm import draw
    from probe_gemv import kernels_and_launch, require_cuda
    from bitorder.cublas.gemv_rule import order_for
    from bitorder.gemm import api
    from bitorder.gemm.shapes import Case
    from bitorder.gemm.simt import gemv, supported
    require_cuda()
    rng = random.Random(args.seed)
    logu = lambda lo, hi: max(lo, min(hi, int(math.exp(rng.uniform(math.log(lo), math.log(hi + 1))))))  # noqa: E731
    t0, rows, counts = time.time(), [], collections.Counter()
    for i in range(args.shapes):
        if time.time() - t0 > args.budget:
            break
        c = Case("linear_bias", rng.choice(("fp16", "bf16")), 1, logu(2, 16384), logu(2, 65536), 1,
                 rng.choice(("nt", "tt", "nn", "tn")), "ltbias")
        a, b, bias = draw(c, args.seed * 13 + i, "narrow")
        p = api.plan(a, b, bias)
        if p.answer is None or int(p.answer["algo_id"]) != 13:
            counts["not algo 13" if p.answer else "no answer"] += 1
            continue
        free = api.plan(a, b).answer
        order = order_for(p.answer, c.k, c.dtype, outputs=c.n)
        row = {"case": c.to_dict(), "answer": {k: v for k, v in p.answer.items() if k != "waves_count"},
               "free_answer": {k: v for k, v in free.items() if k != "waves_count"} if free else None,
               "order": str(order) if order else None,
               "launch": kernels_and_launch(lambda: F.linear(a, b.transpose(-1, -2), bias))}
        if order is not None and not supported(order):
            fits = {}
            for s, kind in enumerate(("narrow", "wide", "cancel")):
                a, b, bias = draw(c, args.seed * 13 + i + s, kind)
                ref = F.linear(a, b.transpose(-1, -2), bias).view(torch.int16)
                fits[kind] = [pl for pl in ("acc", "out")
                              if torch.equal(gemv(a, b, order.replace(bias=pl), bias=bias).view(torch.int16), ref)]
            row["fits"] = fits
            both = set.intersection(*(set(v) for v in fits.values()))
            row["fit"] = ",".join(sorted(both)) or "neither"
        else:
            row["fit"] = "no rule"
        counts[row["fit"]] += 1
        rows.append(row)
    summary = {"shapes_planned": i + 1, "algo13": len(rows), "fits": dict(counts), "seconds": round(time.time() - t0, 1),
               "device": torch.cuda.get_device_name()}
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "probe_ltbias.json"), "w") as f:
        json.dump({"summary": summary, "rows": rows}, f)
    print(f"[ltbias] {json.dumps(summary)}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
