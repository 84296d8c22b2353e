"""Time the SIMT paths (gemv rule, gemmSN rows, magma seq, dot, dots, k1) against cuBLAS on the calls a
census planned onto them, same inputs, CUDA-graph medians (triton.testing.do_bench_cudagraph).

The paths run the small products cuBLAS gives its SIMT kernels (M or N of 1, K = 1, gemmSN's M <= 16),
where a launch costs more than the arithmetic. Per path: the number of calls timed, the geometric
mean of cuBLAS time / bitorder time (x cuBLAS, higher is faster), its quartiles, and the slowest
call. Every timed call is also compared byte for byte (one narrow draw). Writes DIR/bench_simt.json
and DIR/bench_simt.png (each call's speed against cuBLAS by path, log scale; --plot JSON redraws
a stored run on any machine).

    python benchmarks/bench_simt.py --out DIR --census CENSUS.json[.gz] [--per-path 40] [--budget 120]
        [--paths gemv] [--split yes]          (a share: one path, cuBLAS's split answers only)
    python benchmarks/bench_simt.py --plot DIR/bench_simt.json                 (CPU: the plot only)
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


def plot(report: dict, path: str) -> None:
    """One strip per path: every timed call's cuBLAS time / bitorder time (log scale), its geometric
    mean, and the 1.0 line. A failing plot is reported, not raised: the numbers matter more."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        paths = sorted(report["summary"], key=lambda p: report["summary"][p]["geomean_x_cublas"])
        fig, ax = plt.subplots(figsize=(8, 0.6 * len(paths) + 1.5))
        for i, p in enumerate(paths):
            xs = [t["us_cublas"] / t["us_bitorder"] for t in report["calls"] if t["path"] == p]
            ax.scatter(xs, [i + 0.25 * ((j % 5) - 2) / 2 for j in range(len(xs))], s=10, alpha=0.6)
            ax.plot([report["summary"][p]["geomean_x_cublas"]] * 2, [i - 0.35, i + 0.35], color="k", lw=2)
        ax.axvline(1.0, color="r", lw=0.8, ls="--")
        ax.set_xscale("log")
        ax.set_yticks(range(len(paths)), [f"{p} ({report['summary'][p]['calls']})" for p in paths])
        ax.set_xlabel("cuBLAS time / bitorder time (CUDA-graph medians; > 1: bitorder faster); bar: geomean")
        ax.set_title(f"SIMT paths against cuBLAS, {report['timed']} calls ({report['identical']} byte-identical), "
                     f"{report['device']}", fontsize=9)
        fig.tight_layout()
        fig.savefig(path, dpi=120)
    except Exception as e:
        print("plot failed:", e)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out")
    ap.add_argument("--census", help="a census JSON (gate_gemm.py --census)")
    ap.add_argument("--plot", help="redraw DIR/bench_simt.png from a stored bench_simt.json and exit")
    ap.add_argument("--per-path", type=int, default=40)
    ap.add_argument("--budget", type=float, default=120)
    ap.add_argument("--seed", type=int, default=20261320)
    ap.add_argument("--paths", default="", help="comma-separated census paths to time (default: every SIMT path)")
    ap.add_argument("--split", choices=("yes", "no"), help="only calls cuBLAS answered split (yes) or unsplit (no)")
    args = ap.parse_args()
    if args.plot:
        with open(args.plot) as f:
            plot(json.load(f), os.path.join(os.path.dirname(args.plot) or ".", "bench_simt.png"))
        return 0
    if not (args.out and args.census):
        ap.error("--out and --census are needed to time (or --plot FILE to redraw)")
    import torch
    import triton.testing
    from gate_gemm import draw, run_pair
    from bitorder.gemm import api
    from bitorder.gemm.shapes import Case
    with (gzip.open(args.census, "rt") if args.census.endswith(".gz") else open(args.census)) as f:
        rows = json.load(f)["not_triton"]
    keep = set(filter(None, args.paths.split(",")))
    by_path: dict = {}
    for r in rows:
        split = int((r.get("answer") or {}).get("split_k") or 1) > 1
        if (not keep or r["path"] in keep) and (args.split is None or split == (args.split == "yes")):
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
    plot(report, os.path.join(args.out, "bench_simt.png"))
    print(json.dumps({k: report[k] for k in ("timed", "identical", "seconds")}))
    for path, s in summary.items():
        print(f"{path:6s} calls {s['calls']:3d}  x cuBLAS geomean {s['geomean_x_cublas']:.2f}  "
              f"(q25 {s['q25']:.2f}, q75 {s['q75']:.2f}; slowest {s['slowest']['x']:.2f})")
    return 0 if report["identical"] == report["timed"] else 1


if __name__ == "__main__":
    sys.exit(main())
