"""Time the SIMT paths (gemv rule, gemmSN rows, magma seq, dot, dots, k1) against cuBLAS on the calls a
census planned onto them, same inputs, CUDA-graph medians (triton.testing.do_bench_cudagraph).

The paths run the small products cuBLAS gives its SIMT kernels (M or N of 1, K = 1, gemmSN's M <= 16),
where a launch costs more than the arithmetic. Per path: the number of calls timed, the geometric
mean of cuBLAS time / bitorder time (x cuBLAS, higher is faster), its quartiles, and the slowest
call. Every timed call is also compared byte for byte (one narrow draw). Writes DIR/bench_simt.json.

    python benchmarks/bench_simt.py --out DIR --census CENSUS.json[.gz] [--per-path 40] [--budget 120]
"""
from __future__ import annotations

import argparse
import gzip
import json
import math
import os
import random
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "src"))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True)
    ap.add_argument("--census", required=True, help="a census JSON (gate_gemm.py --census)")
    ap.add_argument("--per-path", type=int, default=40)
    ap.add_argument("--budget", type=float, default=120)
    ap.add_argument("--seed", type=int, default=20261320)
    args = ap.parse_args()
    import torch
    import triton.testing
    from gate_gemm import draw, run_pair
    from bitorder.gemm import api
    from bitorder.gemm.shapes import Case
    with (gzip.open(args.census, "rt") if args.census.endswith(".gz") else open(args.census)) as f:
        rows = json.load(f)["not_triton"]
    by_path: dict = {}
    for r in rows:
        by_path.setdefault(r["path"], []).append(r["case"])
    rng = random.Random(args.seed)
    picked = [(p, c) for p, cs in sorted(by_path.items()) if p != "cublas"
              for c in rng.sample(cs, min(args.per_path, len(cs)))]
    rng.shuffle(picked)
    t0, timed = time.time(), []
    for path, cd in picked:
        if time.time() - t0 > args.budget:
            break
        case = Case(**cd)
        a, b, bias = draw(case, args.seed, "narrow")
        plan = api.plan(a, b, None if bias is None else bias)
        ours, ref = run_pair(case, a, b, bias)
        same = bool(torch.equal(ours.contiguous().view(torch.int16), ref.contiguous().view(torch.int16)))
        if case.op in ("mm", "bmm"):
            fo, fr = (lambda: api.matmul(a, b)), (lambda: torch.matmul(a, b))
        else:
            w = b.transpose(-1, -2)
            fo, fr = (lambda: api.linear(a, w, bias)), (lambda: torch.nn.functional.linear(a, w, bias))
        with torch.cuda.stream(torch.cuda.Stream()):
            t_ours = triton.testing.do_bench_cudagraph(fo, rep=20)
            t_ref = triton.testing.do_bench_cudagraph(fr, rep=20)
        timed.append({"path": path, "planned": plan.path, "case": cd, "same": same,
                      "us_bitorder": round(t_ours * 1e3, 2), "us_cublas": round(t_ref * 1e3, 2)})
    summary = {}
    for path in sorted({t["path"] for t in timed}):
        xs = sorted(t["us_cublas"] / t["us_bitorder"] for t in timed if t["path"] == path)
        worst = min((t for t in timed if t["path"] == path), key=lambda t: t["us_cublas"] / t["us_bitorder"])
        summary[path] = {"calls": len(xs), "geomean_x_cublas": round(math.exp(sum(map(math.log, xs)) / len(xs)), 3),
                         "q25": round(xs[len(xs) // 4], 3), "q75": round(xs[3 * len(xs) // 4], 3),
                         "slowest": {"x": round(worst["us_cublas"] / worst["us_bitorder"], 3), "case": worst["case"],
                                     "us_bitorder": worst["us_bitorder"], "us_cublas": worst["us_cublas"]}}
    report = {"device": torch.cuda.get_device_name(), "torch": torch.__version__, "seconds": round(time.time() - t0, 1),
              "timed": len(timed), "identical": sum(t["same"] for t in timed), "summary": summary, "calls": timed}
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "bench_simt.json"), "w") as f:
        json.dump(report, f)
    print(json.dumps({k: report[k] for k in ("timed", "identical", "seconds")}))
    for path, s in summary.items():
        print(f"{path:6s} calls {s['calls']:3d}  x cuBLAS geomean {s['geomean_x_cublas']:.2f}  "
              f"(q25 {s['q25']:.2f}, q75 {s['q75']:.2f}; slowest {s['slowest']['x']:.2f})")
    return 0 if report["identical"] == report["timed"] else 1


if __name__ == "__main__":
    sys.exit(main())
