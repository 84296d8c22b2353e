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
from collections import defaultdict

import torch
import triton

import bitorder
from bench_gemm import geomean, graph_ms  # noqa: E402  (benchmarks/ is the script's folder)
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
        rep = 25 if 2 * case.m * case.n * case.k < 1e11 else 60
        f_ref, f_ours = (lambda: torch._scaled_mm(a, b, sa, sb, **kw)), (lambda: bitorder.scaled_mm(a, b, sa, sb, **kw))
        t_ref = triton.testing.do_bench(f_ref, warmup=5, rep=rep, return_mode="median")
        t_ours = triton.testing.do_bench(f_ours, warmup=5, rep=rep, return_mode="median")
        g_ref, g_ours = graph_ms(f_ref, rep), graph_ms(f_ours, rep)
        rows.append({"group": case.group, "m": case.m, "n": case.n, "k": case.k, "fast_accum": case.fast_accum,
                     "gflop": 2 * case.m * case.n * case.k / 1e9, "identical": bool(torch.equal(bits(ours), bits(ref))),
                     "path": p.path, "desc": str(p.desc), "speed": t_ref / t_ours,
                     "speed_graph": g_ref / g_ours if g_ref and g_ours else None})
    summary = defaultdict(lambda: {"above": [], "below": []})
    for r in rows:
        if r["speed_graph"]:
            key = f"{'fast' if r['fast_accum'] else 'slow'}:{r['group'].split(':')[1]}"
            summary[key]["above" if r["gflop"] > 5 else "below"].append(r["speed_graph"])
    groups = {k: {"geomean_above_5gflop": geomean(v["above"]), "n_above": len(v["above"]),
                  "geomean_below_5gflop": geomean(v["below"]), "n_below": len(v["below"])} for k, v in sorted(summary.items())}
    overall = {mode: {"above": geomean([r[mode] for r in rows if r[mode] and r["gflop"] > 5]),
                      "below": geomean([r[mode] for r in rows if r[mode] and r["gflop"] <= 5])}
               for mode in ("speed_graph", "speed")}
    report = {"device": torch.cuda.get_device_name(), "rows": rows, "groups": groups, "overall": overall,
              "identical": sum(r["identical"] for r in rows), "triton_path": sum(r["path"] == "triton" for r in rows),
              "n": len(rows), "planned": len(cases), "seconds": time.time() - t0}
    with open(os.path.join(args.out, "bench_fp8.json"), "w") as f:
        json.dump(report, f, indent=1)
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots(figsize=(10, 4.5))
        names = list(groups)
        xs = range(len(names))
        ax.bar([i - 0.2 for i in xs], [groups[n]["geomean_above_5gflop"] for n in names], 0.4, label="> 5 GFLOP")
        ax.bar([i + 0.2 for i in xs], [groups[n]["geomean_below_5gflop"] for n in names], 0.4, label="<= 5 GFLOP")
        ax.axhline(1.0, color="k", lw=0.8)
        ax.axhline(0.8, color="r", lw=0.8, ls="--", label="floor 0.8x")
        ax.set_xticks(list(xs), names, rotation=45, ha="right", fontsize=8)
        ax.set_ylabel("torch._scaled_mm time / bitorder time")
        ax.set_title(f"bitorder.scaled_mm vs torch._scaled_mm on {report['device']} (CUDA graphs, geomean per layer)")
        ax.legend(fontsize=8)
        fig.tight_layout()
        fig.savefig(os.path.join(args.out, "bench_fp8.png"), dpi=120)
    except Exception as e:  # the numbers matter more than the picture
        print("plot failed:", e)
    print(json.dumps({"overall": overall, "identical": report["identical"], "n": report["n"],
                      "triton_path": report["triton_path"]}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
