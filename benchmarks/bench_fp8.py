"""Speed of bitorder.scaled_mm against torch._scaled_mm on realistic layers (issue 6, GPU).

The realistic layers whose N and K are multiples of 16 (torch's rule) x tokens, e4m3 operands,
tensor-wise scales, out bf16, both accumulation modes; same inputs for both, CUDA-graph and
do_bench medians, bytes compared. The fp8 candidate plans (BITORDER_UNVERIFIED=1): until its
gate has passed this measures the kernel the gate verifies. Writes bench_fp8.json and
bench_fp8.png (geometric mean per layer, split at 5 GFLOP).

    python benchmarks/bench_fp8.py --out DIR [--budget S]
"""
from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time

import torch

import bitorder
from bench_gemm import plot_speeds, summarize, time_pair  # noqa: E402  (benchmarks/ is the script's folder)
from gate_fp8 import FP8Case, bits, draw, realistic_cases  # noqa: E402
from bitorder.gemm import fp8


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--budget", type=float, default=200)
    ap.add_argument("--seed", type=int, default=8)
    args = ap.parse_args()
    os.environ["BITORDER_UNVERIFIED"] = "1"
    cases = [c for fast in (False, True) for c in realistic_cases(fast, "bf16")]
    random.Random(args.seed).shuffle(cases)
    rows, t0 = [], time.time()
    for case in cases:
        if time.time() - t0 > args.budget:
            break
        a, b, sa, sb, _ = draw(FP8Case(case.m, case.n, case.k, case.fast_accum, "bf16"), 1, "narrow")
        kw = dict(out_dtype=torch.bfloat16, use_fast_accum=case.fast_accum)
        ref = torch._scaled_mm(a, b, sa, sb, **kw)
        ours = bitorder.scaled_mm(a, b, sa, sb, **kw)
        p = fp8.plan(a, b, sa, sb, None, torch.bfloat16, case.fast_accum)
        t_ref, t_ours, g_ref, g_ours = time_pair(lambda: torch._scaled_mm(a, b, sa, sb, **kw),
                                                 lambda: bitorder.scaled_mm(a, b, sa, sb, **kw), 2 * case.m * case.n * case.k)
        rows.append({"group": case.group, "m": case.m, "n": case.n, "k": case.k, "fast_accum": case.fast_accum,
                     "gflop": 2 * case.m * case.n * case.k / 1e9, "identical": bool(torch.equal(bits(ours), bits(ref))),
                     "path": p.path, "desc": str(p.desc), "speed": t_ref / t_ours,
                     "speed_graph": g_ref / g_ours if g_ref and g_ours else None})
    groups, overall = summarize(rows, lambda r: f"{'fast' if r['fast_accum'] else 'slow'}:{r['group'].split(':')[1]}")
    report = {"device": torch.cuda.get_device_name(), "rows": rows, "groups": groups, "overall": overall,
              "identical": sum(r["identical"] for r in rows), "triton_path": sum(r["path"] == "triton" for r in rows),
              "n": len(rows), "planned": len(cases), "seconds": time.time() - t0}
    with open(os.path.join(args.out, "bench_fp8.json"), "w") as f:
        json.dump(report, f, indent=1)
    plot_speeds(os.path.join(args.out, "bench_fp8.png"), groups, [("speed_graph", "CUDA graphs")],
                f"bitorder.scaled_mm vs torch._scaled_mm on {report['device']}", "torch._scaled_mm time / bitorder time")
    print(json.dumps({"overall": overall, "identical": report["identical"], "n": report["n"],
                      "triton_path": report["triton_path"]}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
