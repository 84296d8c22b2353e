"""Speed of bitorder.linear against F.linear (cuBLAS) on realistic model layers (GPU).

Same inputs for both, timed two ways: triton.testing.do_bench medians (host time per
call included: a small product waits on the launch) and do_bench_cudagraph medians (the
calls replayed from a CUDA graph: the kernels' own time). Per group (model layer) the
geometric mean of cuBLAS time over bitorder time (> 1: bitorder faster), split at
5 GFLOP. Writes bench.json and bench.png.

    python benchmarks/bench_gemm.py --out DIR [--dtypes fp16,bf16] [--budget S]
"""
from __future__ import annotations

import argparse
import json
import math
import os
import random
import sys
import time
from collections import defaultdict

import torch
import torch.nn.functional as F
import triton

import bitorder
from bitorder.draws import torch_draw
from bitorder.gemm import api, launch
from bitorder.gemm.shapes import realistic
from overhead_gemm import per_call_us  # noqa: E402  (benchmarks/ is the script's folder)

# Tile configurations the sweep times: (BLOCK_M, BLOCK_N, BLOCK_K, num_warps, num_stages).
# Every one walks the same chain (speed knobs only): the sweep checks the bytes too.
# A sixth element "tma" loads the tiles by TMA (launch.chain's tma=True; plain chains only),
# "persistent" also runs one program per SM over the tiles (tma="persistent").
SWEEP = [(128, 128, 64, 8, 3), (128, 256, 64, 8, 3), (128, 128, 64, 4, 4), (256, 128, 64, 8, 3),
         (128, 256, 64, 8, 4), (64, 128, 64, 4, 3), (64, 256, 64, 4, 4), (64, 64, 64, 4, 5),
         (256, 128, 64, 8, 4), (128, 128, 64, 8, 5), (128, 64, 64, 4, 4), (128, 128, 128, 8, 3),
         (128, 256, 64, 8, 3, "tma"), (128, 256, 64, 8, 4, "tma"), (128, 128, 64, 8, 4, "tma"),
         (128, 128, 64, 4, 4, "tma"), (256, 128, 64, 8, 3, "tma"), (64, 128, 64, 4, 4, "tma"),
         (128, 64, 64, 4, 4, "tma"), (64, 64, 64, 4, 5, "tma"), (128, 256, 64, 8, 3, "persistent"),
         (128, 128, 64, 8, 4, "persistent"), (128, 64, 64, 4, 4, "persistent"),
         # for the slowest groups (2026-11-30d: fp16 qkv 0.72x): deeper pipelines, smaller persistent tiles
         (128, 128, 64, 8, 5, "tma"), (64, 128, 64, 4, 5, "tma"), (64, 256, 64, 4, 4, "tma"),
         (128, 128, 64, 8, 5, "persistent"), (64, 128, 64, 4, 4, "persistent"), (128, 256, 64, 8, 4, "persistent")]


def geomean(xs):
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else float("nan")


def plan_overhead(reps: int = 2000) -> dict:
    """Host microseconds per call spent routing (memoised plan lookup) and in the whole
    bitorder.linear for a tiny product, against F.linear's."""
    x = torch_draw((8, 64), "fp16", 1, 1, "narrow")
    w = torch_draw((64, 64), "fp16", 1, 2, "narrow")
    return {name: per_call_us(fn, reps) for name, fn in (
        ("route", lambda: api._route_cached(x, w.t(), None)),
        ("bitorder.linear", lambda: bitorder.linear(x, w)), ("F.linear", lambda: F.linear(x, w)))}


def graph_ms(fn, rep: int):
    """do_bench_cudagraph's median for fn (None if fn cannot be captured)."""
    try:
        return triton.testing.do_bench_cudagraph(fn, rep=rep, return_mode="median")
    except Exception as e:  # report, do not hide: the do_bench column still stands
        print("graph timing failed:", type(e).__name__, e, flush=True)
        return None


def time_pair(f_ref, f_ours, flops: float, eager: bool = True):
    """(ref ms, ours ms) as do_bench medians (None, None without eager), then as CUDA-graph medians (None if
    not capturable)."""
    rep = 25 if flops < 1e11 else 60
    t_ref = triton.testing.do_bench(f_ref, warmup=5, rep=rep, return_mode="median") if eager else None
    t_ours = triton.testing.do_bench(f_ours, warmup=5, rep=rep, return_mode="median") if eager else None
    return t_ref, t_ours, graph_ms(f_ref, rep), graph_ms(f_ours, rep)


def summarize(rows, group_of):
    """({mode: {group: geometric means and counts above and below 5 GFLOP}}, {mode: overall})
    for the modes speed (do_bench) and speed_graph (CUDA graphs); rows without a time are left out."""
    summary, overall = {}, {}
    for mode in ("speed", "speed_graph"):
        groups = defaultdict(lambda: {"above": [], "below": []})
        for r in rows:
            if r[mode] is not None:
                groups[group_of(r)]["above" if r["gflop"] > 5 else "below"].append(r[mode])
        summary[mode] = {g: {"geomean_above_5gflop": geomean(v["above"]), "n_above": len(v["above"]),
                             "geomean_below_5gflop": geomean(v["below"]), "n_below": len(v["below"])}
                         for g, v in sorted(groups.items())}
        overall[mode] = {"above": geomean([r[mode] for r in rows if r[mode] and r["gflop"] > 5]),
                         "below": geomean([r[mode] for r in rows if r[mode] and r["gflop"] <= 5])}
    return summary, overall


def plot_speeds(path, summary, panels, title, ylabel):
    """One bar panel per (mode, how): each group's geometric mean above and below 5 GFLOP, with
    the 0.8x floor. A failing plot is reported, not raised: the numbers matter more."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, axes = plt.subplots(len(panels), 1, figsize=(10, 4 * len(panels)), sharex=True, squeeze=False)
        names = list(summary[panels[0][0]])
        xs = range(len(names))
        for ax, (mode, how) in zip(axes[:, 0], panels):
            for dx, side, label in ((-0.2, "above", "> 5 GFLOP"), (0.2, "below", "<= 5 GFLOP")):
                ax.bar([i + dx for i in xs], [summary[mode].get(n, {}).get(f"geomean_{side}_5gflop", float("nan"))
                                              for n in names], 0.4, label=label)
            ax.axhline(1.0, color="k", lw=0.8)
            ax.axhline(0.8, color="r", lw=0.8, ls="--", label="floor 0.8x")
            ax.set_xticks(list(xs), names, rotation=45, ha="right", fontsize=8)
            ax.set_ylabel(ylabel)
            ax.set_title(f"{title}, {how} (geomean per layer)", fontsize=9)
            ax.legend(fontsize=8)
        fig.tight_layout()
        fig.savefig(path, dpi=120)
    except Exception as e:
        print("plot failed:", e)


def sweep_tiles(cases, count: int, budget: float) -> list[dict]:
    """Time every SWEEP tile on `count` shapes (half above 5 GFLOP): which tiles the
    planner should pick (CUDA-graph medians: the kernels' time). Each tile's bytes are
    compared with cuBLAS's too."""
    big = [c for c in cases if c.flops > 5e9][: (count + 1) // 2]
    small = [c for c in cases if c.flops <= 5e9][: count // 2]
    if all(c.flops > 5e9 for c in cases):   # an explicit list above 5 GFLOP: take `count` of them
        big = cases[:count]
    rows, t0 = [], time.time()
    for case in big + small:
        if time.time() - t0 > budget:
            break
        x = torch_draw((case.m, case.k), case.dtype, 1, 1, "narrow")
        w = torch_draw((case.n, case.k), case.dtype, 1, 2, "narrow")
        p = api.plan(x, w.t())
        ref = F.linear(x, w)
        row = {"m": case.m, "n": case.n, "k": case.k, "dtype": case.dtype, "gflop": case.flops / 1e9,
               "desc": str(p.desc), "ms_cublas": graph_ms(lambda: F.linear(x, w), 30), "tiles": {}}
        if p.path != "triton":
            continue
        for tile in SWEEP:
            how = {"tma": True, "persistent": "persistent"}.get(tile[5] if len(tile) > 5 else "", False)
            fn = lambda: launch.run(x, w.t(), p.desc, block=tile[:5], tma=how)  # noqa: E731
            try:
                same = bool(torch.equal(fn().view(torch.int16), ref.view(torch.int16)))
                ms = graph_ms(fn, 30)
            except Exception as e:  # out of shared memory for this tile
                row["tiles"]["x".join(map(str, tile))] = {"error": f"{type(e).__name__}"}
                continue
            speed = row["ms_cublas"] / ms if ms and row["ms_cublas"] else None
            row["tiles"]["x".join(map(str, tile))] = {"ms": ms, "speed": speed, "identical": same}
        rows.append(row)
        best = max(((v["speed"], k) for k, v in row["tiles"].items() if v.get("speed")), default=(0.0, "none"))
        print(f"sweep {case.m}x{case.n}x{case.k} {case.dtype}: best {best[1]} {best[0]:.2f}x", flush=True)
    return rows


def write_sweep(out: str, sweep: list) -> int:
    """sweep.json: every swept shape's tiles, each tile's geometric-mean speed over the shapes it
    ran on, and whether every tile returned cuBLAS's bytes (exit 1 if one did not)."""
    per_tile = {}
    for row in sweep:
        for tile, v in row["tiles"].items():
            if v.get("speed"):
                per_tile.setdefault(tile, []).append(v["speed"])
    tiles = {t: {"geomean": geomean(xs), "shapes": len(xs)} for t, xs in per_tile.items()}
    same = all(v.get("identical", True) for row in sweep for v in row["tiles"].values())
    with open(os.path.join(out, "sweep.json"), "w") as f:
        json.dump({"device": torch.cuda.get_device_name(), "tiles": tiles, "all_identical": same, "rows": sweep,
                   "env": {k: os.environ.get(k, "") for k in ("BITORDER_TILES", "BITORDER_TMA")}}, f, indent=1)
    for t, v in sorted(tiles.items(), key=lambda x: -x[1]["geomean"]):
        print(f"{t:22s} {v['geomean']:.3f}x over {v['shapes']} shapes")
    print("every tile cuBLAS's bytes:", same)
    return 0 if same else 1


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--dtypes", default="fp16,bf16")
    ap.add_argument("--budget", type=float, default=200)
    ap.add_argument("--sweep", type=int, default=0, help="shapes (half above 5 GFLOP) whose tiles are swept")
    ap.add_argument("--sweep-groups", default="", help="comma-separated layer names (qkv,o_proj): sweep only these")
    ap.add_argument("--sweep-only", action="store_true", help="the sweep alone, with the whole budget")
    ap.add_argument("--sweep-shapes", default="",
                    help="comma-separated MxNxK of realistic shapes: sweep only these (every dtype that has them)")
    ap.add_argument("--seed", type=int, default=5)
    args = ap.parse_args()
    rows = []
    t0 = time.time()
    cases = [c for dt in args.dtypes.split(",") for c in realistic(dt)]
    random.Random(args.seed).shuffle(cases)  # a budget then samples every model, not the first few
    wanted = [g for g in args.sweep_groups.split(",") if g]
    swept = [c for c in cases if not wanted or c.group.split(":")[-1] in wanted]
    if args.sweep_shapes:
        shapes = {tuple(int(v) for v in s.split("x")) for s in args.sweep_shapes.split(",")}
        swept = [c for c in swept if (c.m, c.n, c.k) in shapes]
        seen = set()   # one case per (shape, dtype): the realistic set repeats shapes across models
        swept = [c for c in swept if not ((c.m, c.n, c.k, c.dtype) in seen or seen.add((c.m, c.n, c.k, c.dtype)))]
    sweep = sweep_tiles(swept, args.sweep, args.budget / (1 if args.sweep_only else 2)) if args.sweep else None
    if args.sweep_only:
        return write_sweep(args.out, sweep)
    for case in cases:
        if time.time() - t0 > args.budget:
            break
        dt = case.dtype
        x = torch_draw((case.m, case.k), dt, 1, 1, "narrow")
        w = torch_draw((case.n, case.k), dt, 1, 2, "narrow")
        p = api.plan(x, w.t())
        ours = bitorder.linear(x, w)
        ref = F.linear(x, w)
        same = bool(torch.equal(ours.view(torch.int16), ref.view(torch.int16)))
        t_ref, t_ours, g_ref, g_ours = time_pair(lambda: F.linear(x, w), lambda: bitorder.linear(x, w), case.flops)
        rows.append({"dtype": dt, "group": case.group, "m": case.m, "n": case.n, "k": case.k,
                     "gflop": case.flops / 1e9, "ms_cublas": t_ref, "ms_bitorder": t_ours,
                     "speed": t_ref / t_ours, "ms_cublas_graph": g_ref, "ms_bitorder_graph": g_ours,
                     "speed_graph": g_ref / g_ours if g_ref and g_ours else None,
                     "identical": same, "path": p.path, "desc": str(p.desc)})
    summary, overall = summarize(rows, lambda r: f"{r['dtype']}:{r['group'].split(':')[1]}")
    report = {"device": torch.cuda.get_device_name(), "rows": rows, "groups": summary, "overall": overall,
              "identical": sum(r["identical"] for r in rows), "n": len(rows), "planned": len(cases),
              "plan_overhead_us": plan_overhead(), "sweep": sweep, "seconds": time.time() - t0,
              "env": {k: os.environ.get(k, "") for k in ("BITORDER_FAST_LAUNCH", "BITORDER_TILES", "BITORDER_TMA")},
              "fast_launch": launch.FAST, "tiles": launch.TILES}
    with open(os.path.join(args.out, "bench.json"), "w") as f:
        json.dump(report, f, indent=1)
    plot_speeds(os.path.join(args.out, "bench.png"), summary,
                [("speed_graph", "CUDA graph: kernel time"), ("speed", "do_bench: host time included")],
                f"bitorder.linear vs F.linear on {report['device']}", "cuBLAS time / bitorder time")
    print(json.dumps({"overall": overall, "identical": report["identical"], "n": report["n"]}, indent=1))
    for g, v in summary["speed_graph"].items():
        print(f"{g:24s} graph >5GF {v['geomean_above_5gflop']:.2f} (n={v['n_above']})  <=5GF {v['geomean_below_5gflop']:.2f} (n={v['n_below']})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
