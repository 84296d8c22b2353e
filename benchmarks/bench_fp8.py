"""Speed of bitorder.scaled_mm against torch._scaled_mm on realistic layers (issue 6, GPU).

The realistic layers whose N and K are multiples of 16 (torch's rule) x tokens, e4m3 operands,
tensor-wise scales, out bf16, both accumulation modes; same inputs for both, CUDA-graph and
do_bench medians, bytes compared. scaled_mm's default path (its fp8 entries verified since the
2026-12-04 gate; earlier runs set BITORDER_UNVERIFIED=1 to reach it). Writes bench_fp8.json and
bench_fp8.png (geometric mean per layer, split at 5 GFLOP).

--sweep N times the promoting chains (use_fast_accum=False) of N realistic shapes above 5 GFLOP
at each SWEEP8 tile, bytes compared with torch's, into sweep_fp8.json. Why: Triton waits for each
promotion interval's fresh dot before its fp32 add (the PTX has wgmma.wait_group 0 after every
interval's four k32 steps), so one CTA cannot overlap its adds with its tensor-core work; tiles
small enough for two CTAs per SM (64-row tiles: 24 KB a stage, few registers) may let the other
CTA's wgmma run meanwhile.

    python benchmarks/bench_fp8.py --out DIR [--budget S] [--slice A:B] [--graphs-only] [--sweep N --sweep-only]
    python benchmarks/bench_fp8.py --out DIR --merge SLICE.json ... [--replace MODE.json]   (the whole set from
        slice runs, one mode's rows replaced by a whole --accum run of it; CPU)
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
from bench_gemm import graph_ms, plot_speeds, summarize, time_pair  # noqa: E402  (benchmarks/ is the script's folder)
from gate_fp8 import FP8Case, bits, draw, realistic_cases  # noqa: E402
from bitorder.gemm import fp8

# (BLOCK_M, BLOCK_N, BLOCK_K, warps, stages, TMA) for promoting chains: BLOCK_K stays the interval.
# ptxas (sm_90, no spills, wgmma not serialized on any): 128x128 takes 139 registers x 256 threads,
# one CTA per SM whatever the stages; the 64-row tiles take 139-140 x 128 and 74-98 KB of ring at 3-4
# stages (two or three CTAs per SM); 64x256 spilled (84 stores) and is left out.
SWEEP8 = [(128, 128, 128, 8, 4, True), (128, 128, 128, 8, 3, True), (128, 128, 128, 8, 4, False),
          (64, 128, 128, 4, 4, True), (64, 128, 128, 4, 3, True), (64, 128, 128, 4, 4, False),
          (64, 128, 128, 4, 2, True), (128, 64, 128, 4, 4, True), (64, 64, 128, 4, 6, True)]


def sweep(cases, count: int, budget: float) -> list[dict]:
    """Every SWEEP8 tile on the first `count` promoting cases above 5 GFLOP whose plan runs Triton:
    CUDA-graph speed against torch._scaled_mm, and the bytes against torch's."""
    rows, t0 = [], time.time()
    for case in [c for c in cases if not c.fast_accum and 2 * c.m * c.n * c.k > 5e9][:count]:
        if time.time() - t0 > budget:
            break
        a, b, sa, sb, _ = draw(FP8Case(case.m, case.n, case.k, False, "bf16"), 1, "narrow")
        kw = dict(out_dtype=torch.bfloat16, use_fast_accum=False)
        p = fp8.plan(a, b, sa, sb, None, torch.bfloat16, False)
        if p.path != "triton" or p.desc.family != "plain":
            continue
        ref = torch._scaled_mm(a, b, sa, sb, **kw)
        row = {"m": case.m, "n": case.n, "k": case.k, "desc": str(p.desc),
               "ms_torch": graph_ms(lambda: torch._scaled_mm(a, b, sa, sb, **kw), 30), "tiles": {}}
        for tile in SWEEP8:
            fn = lambda: fp8.run(a, b, sa, sb, p.desc, None, torch.bfloat16, block=tile[:5], tma=tile[5])  # noqa: E731
            name = "x".join(map(str, tile[:5])) + ("xtma" if tile[5] else "")
            try:
                same = bool(torch.equal(bits(fn()), bits(ref)))
                ms = graph_ms(fn, 30)
            except Exception as e:   # out of shared memory or registers for this tile
                row["tiles"][name] = {"error": type(e).__name__}
                continue
            row["tiles"][name] = {"ms": ms, "speed": row["ms_torch"] / ms if ms else None, "identical": same}
        rows.append(row)
        best = max(((v["speed"], k) for k, v in row["tiles"].items() if v.get("speed")), default=(0.0, "none"))
        print(f"sweep {case.m}x{case.n}x{case.k} slow: best {best[1]} {best[0]:.2f}x", flush=True)
    return rows


def write_report(out: str, rows: list, meta: dict) -> dict:
    """bench_fp8.json (meta, the rows, per-group and overall geometric means, counts) and bench_fp8.png."""
    groups, overall = summarize(rows, lambda r: f"{_mode(r)}:{r['group'].split(':')[1]}")
    report = {**meta, "rows": rows, "groups": groups, "overall": overall,
              "identical": sum(r["identical"] for r in rows), "triton_path": sum(r["path"] == "triton" for r in rows),
              "n": len(rows)}
    with open(os.path.join(out, "bench_fp8.json"), "w") as f:
        json.dump(report, f, indent=1)
    plot_speeds(os.path.join(out, "bench_fp8.png"), groups, [("speed_graph", "CUDA graphs")],
                f"bitorder.scaled_mm vs torch._scaled_mm on {report['device']}", "torch._scaled_mm time / bitorder time")
    print(json.dumps({"overall": overall, "identical": report["identical"], "n": report["n"],
                      "triton_path": report["triton_path"]}, indent=1))
    return report


def _mode(r) -> str:
    return "fast" if r["fast_accum"] else "slow"


def _load(path: str) -> dict:
    with open(path) as f:
        return json.load(f)


def _start(run: dict) -> int:
    """The first call of the shuffled set a run timed (its --slice's start; 0 without one)."""
    return int((run.get("slice") or "0:").split(":")[0] or 0)


def merge(paths: list, out: str, replace: list = ()) -> dict:
    """One report from runs on slices of the shuffled set (--slice; a budget may stop a run early: a run of
    slice A:B that timed n calls covers A:A+n). Raises ValueError unless the covered ranges are contiguous and
    make the whole set, on one device with the same switches: the floor is measured on the set, not a sample."""
    named = sorted(((p, _load(p)) for p in paths), key=lambda pr: _start(pr[1]))
    runs = [r for _, r in named]
    at, rows = 0, []
    for r in runs:
        lo = _start(r)
        if lo != at:
            raise ValueError(f"slices do not join: a run starts at call {lo}, the ones before cover 0:{at}")
        at, rows = lo + r["n"], rows + r["rows"]
    keys = ("device", "fp8_ws", "fp8_ws_tiles", "set")
    if len({tuple(r.get(k) for k in keys) for r in runs}) != 1:
        raise ValueError(f"runs differ in {keys}: {[tuple(r.get(k) for k in keys) for r in runs]}")
    if at != runs[0]["set"]:
        raise ValueError(f"the runs cover calls 0:{at} of {runs[0]['set']}")
    meta = {k: runs[0][k] for k in keys}
    meta.update(planned=at, slice="", merged=[f"{p}: {r.get('slice')} ({r['n']} calls)" for p, r in named],
                seconds=sum(r["seconds"] for r in runs))
    # replace: runs of one accumulation mode (--accum; sliced or budget-cut runs may add up) stand for that mode's rows
    # where a change touched one mode's kernels alone; together they must time exactly that mode's calls
    by_mode = {}
    for path in replace:
        r = _load(path)
        if r.get("accum") not in ("slow", "fast") or r.get("set") != meta["set"]:
            raise ValueError(f"{path}: a replacing run times one mode's calls of the same set (--accum slow|fast)")
        by_mode.setdefault(r["accum"], []).append((path, r))
    calls = lambda rs: sorted((x["group"], x["m"], x["n"], x["k"]) for x in rs)  # noqa: E731
    for mode, runs_of_mode in by_mode.items():
        new_rows = [x for _, r in runs_of_mode for x in r["rows"]]
        if calls(x for x in rows if _mode(x) == mode) != calls(new_rows):
            raise ValueError(f"{[p for p, _ in runs_of_mode]}: their {mode} calls are not the joined runs' {mode} "
                             "calls (a run cut short, or another set)")
        rows = [x for x in rows if _mode(x) != mode] + new_rows
        for path, r in runs_of_mode:
            meta["merged"].append(f"{path}: {r['n']} {mode} calls ({r.get('slice') or 'all'}), replacing the above's")
            meta["seconds"] += r["seconds"]
    os.makedirs(out, exist_ok=True)
    return write_report(out, rows, meta)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--budget", type=float, default=200)
    ap.add_argument("--seed", type=int, default=8)
    ap.add_argument("--slice", default="", help="A:B of the shuffled set (calls add up to the whole set)")
    ap.add_argument("--graphs-only", action="store_true", help="CUDA-graph medians only (no do_bench column)")
    ap.add_argument("--sweep", type=int, default=0, help="promoting shapes above 5 GFLOP whose tiles are swept")
    ap.add_argument("--sweep-only", action="store_true", help="the sweep alone, with the whole budget")
    ap.add_argument("--merge", nargs="+", metavar="JSON",
                    help="no timing: join runs on slices that make the whole set into one report (CPU)")
    ap.add_argument("--accum", choices=("both", "slow", "fast"), default="both",
                    help="time one accumulation mode's calls alone (--slice then counts that mode's calls)")
    ap.add_argument("--replace", nargs="+", default=[], metavar="JSON",
                    help="with --merge: --accum runs whose rows, together, replace that mode's")
    args = ap.parse_args()
    if args.merge:
        merge(args.merge, args.out, args.replace)
        return 0
    cases = [c for fast in (False, True) for c in realistic_cases(fast, "bf16")]
    random.Random(args.seed).shuffle(cases)
    planned = len(cases)
    if args.accum != "both":   # before the slice: --slice then counts this mode's calls
        cases = [c for c in cases if c.fast_accum == (args.accum == "fast")]
    if args.slice:
        lo, hi = (int(x) if x else None for x in args.slice.split(":"))
        cases = cases[lo:hi]
    if args.sweep:
        from bench_gemm import write_sweep  # noqa: E402
        rows = sweep(cases, args.sweep, args.budget if args.sweep_only else args.budget / 2)
        for r in rows:   # write_sweep reads ms_cublas as the reference's time
            r["ms_cublas"] = r["ms_torch"]
        os.makedirs(os.path.join(args.out, "sweep_fp8"), exist_ok=True)
        rc = write_sweep(os.path.join(args.out, "sweep_fp8"), rows)
        if args.sweep_only:
            return rc
    rows, t0 = [], time.time()
    for case in cases:
        if time.time() - t0 > args.budget:
            break
        a, b, sa, sb, _ = draw(FP8Case(case.m, case.n, case.k, case.fast_accum, "bf16"), 1, "narrow")
        kw = dict(out_dtype=torch.bfloat16, use_fast_accum=case.fast_accum)
        ref = torch._scaled_mm(a, b, sa, sb, **kw)
        ours = bitorder.scaled_mm(a, b, sa, sb, **kw)
        p = fp8.plan(a, b, sa, sb, None, torch.bfloat16, case.fast_accum)
        # --graphs-only: the floor's measure alone (do_bench's two timings skipped; not yet timed on the H200)
        t_ref, t_ours, g_ref, g_ours = time_pair(lambda: torch._scaled_mm(a, b, sa, sb, **kw),
                                                 lambda: bitorder.scaled_mm(a, b, sa, sb, **kw),
                                                 2 * case.m * case.n * case.k, eager=not args.graphs_only)
        rows.append({"group": case.group, "m": case.m, "n": case.n, "k": case.k, "fast_accum": case.fast_accum,
                     "gflop": 2 * case.m * case.n * case.k / 1e9, "identical": bool(torch.equal(bits(ours), bits(ref))),
                     "path": p.path, "desc": str(p.desc), "speed": t_ref / t_ours if t_ref and t_ours else None,
                     "speed_graph": g_ref / g_ours if g_ref and g_ours else None})
    write_report(args.out, rows, {"device": torch.cuda.get_device_name(), "fp8_ws": fp8.FP8_WS,
                                  "fp8_ws_tiles": fp8.FP8_WS_TILES, "planned": len(cases), "set": planned,
                                  "slice": args.slice, "accum": args.accum, "seconds": time.time() - t0})
    return 0


if __name__ == "__main__":
    sys.exit(main())
