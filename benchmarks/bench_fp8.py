"""Speed of bitorder.scaled_mm against torch._scaled_mm on realistic layers (issue 6, GPU).

The realistic layers whose N and K are multiples of 16 (torch's rule) x tokens, e4m3 operands,
tensor-wise scales, out bf16, both accumulation modes; same inputs for both, CUDA-graph and
do_bench medians, bytes compared. The fp8 candidate plans (BITORDER_UNVERIFIED=1): until its
gate has passed this measures the kernel the gate verifies. Writes bench_fp8.json and
bench_fp8.png (geometric mean per layer, split at 5 GFLOP).

--sweep N times the promoting chains (use_fast_accum=False) of N realistic shapes above 5 GFLOP
at each SWEEP8 tile, PIPE off and on (kernels_fp8.chain8_tile's warp-specialized K loop, on
128-row TMA tiles with 4 warps a group as fp8.run applies it: SWEEP8_PIPE), bytes compared with
torch's for each, into sweep_fp8/sweep.json (rewritten after every shape, so a run cut short keeps
what it timed). Why: Triton waits for each promotion interval's fresh dot before its fp32 add (the
PTX has wgmma.wait_group 0 after every interval's four k32 steps), so one CTA cannot overlap its
adds with its tensor-core work; tiles small enough for two CTAs per SM (64-row tiles: 24 KB a
stage, few registers) may let the other CTA's wgmma run meanwhile, and so may PIPE's two consumer
groups, which wait only on the producer's barriers, not on each other.

What the source can do about the wait (compiled for sm_90 with Triton 3.6 on the CPU, 128x128 and
64x128 TMA tiles, 2026-12-02): the promotion as written (acc + dot) and software-pipelined (the
partial carried: p_next = dot; acc += p; p = p_next) both get wait_group 0 right after the dot
(the pipelined one with 200 registers instead of 139); two intervals a turn (BLOCK_K 256, two dots,
(acc + p0) + p1) get a wait_group 0 after each dot (199 registers, 197-262 KB at 3-4 stages). Triton
keeps a dot async only if the loop uses its result solely through the next turn or after an
earlier wait_group 0 (WGMMAPipeline.cpp, dotCanBeProperlyAsync); the one form that issues a dot
before the adds (a synchronous dot, then a carried one, then the adds) copies the carried partial
at the loop's back edge while its wgmma runs, and ptxas serializes every wgmma (C7514, 253
registers). An scf.if use of the second dot crashes Triton's pipeliner. So PIPE is the warp
specialization (tl.range(warp_specialize=True)): at 4 warps on 128-row TMA tiles Triton 3.6 builds a
TMA producer group and two 64-row consumer groups (384 threads, 168 registers, setmaxnreg 232 for
the consumers, no spills, not serialized); each consumer still waits for its own dot before its
adds. At 8 warps and on pointer tiles PIPE compiles to the same PTX as off; on 64-row tiles both
consumer groups would compute the whole tile (fp8.run does not apply it there).

    python benchmarks/bench_fp8.py --out DIR [--budget S] [--sweep N --sweep-only] [--pipe on|off]

--pipe sets BITORDER_FP8_PIPE for the realistic set (the default: whatever the environment says;
bench_fp8.json records it).
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

# (BLOCK_M, BLOCK_N, BLOCK_K, warps, stages, TMA) for promoting chains: BLOCK_K stays the interval.
# ptxas (sm_90, no spills, wgmma not serialized on any): 128x128 takes 139 registers x 256 threads,
# one CTA per SM whatever the stages; the 64-row tiles take 139-140 x 128 and 74-98 KB of ring at 3-4
# stages (two or three CTAs per SM); 64x256 spilled (84 stores) and is left out.
SWEEP8 = [(128, 128, 128, 8, 4, True), (128, 128, 128, 8, 3, True), (128, 128, 128, 8, 4, False),
          (64, 128, 128, 4, 4, True), (64, 128, 128, 4, 3, True), (64, 128, 128, 4, 4, False),
          (64, 128, 128, 4, 2, True), (128, 64, 128, 4, 4, True), (64, 64, 128, 4, 6, True)]
# PIPE on: the 128-row TMA tiles above with 4 warps a group (fp8._pipe), where Triton specializes
SWEEP8_PIPE = [(128, 128, 128, 4, 4, True), (128, 128, 128, 4, 3, True), (128, 64, 128, 4, 4, True)]


def _tile_name(tile, pipe):
    return "x".join(map(str, tile[:5])) + ("xtma" if tile[5] else "") + ("xpipe" if pipe else "")


def sweep(cases, count: int, budget: float, out=None) -> list[dict]:
    """Every SWEEP8 tile with PIPE off and every SWEEP8_PIPE tile with PIPE on, on the first `count`
    promoting cases above 5 GFLOP whose plan runs Triton: CUDA-graph speed against torch._scaled_mm,
    and the bytes against torch's. out(rows) is called after every shape (the partial results);
    tiles past the budget are marked skipped."""
    from bench_gemm import graph_ms  # noqa: E402
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
        for tile, pipe in [(t, False) for t in SWEEP8] + [(t, True) for t in SWEEP8_PIPE]:
            name = _tile_name(tile, pipe)
            if time.time() - t0 > budget:
                row["tiles"][name] = {"skipped": "budget"}
                continue
            fn = lambda: fp8.run(a, b, sa, sb, p.desc, None, torch.bfloat16, block=tile[:5], tma=tile[5],  # noqa: E731
                                 pipe=pipe)
            try:
                same = bool(torch.equal(bits(fn()), bits(ref)))
                ms = graph_ms(fn, 30)
            except Exception as e:   # out of shared memory or registers for this tile
                row["tiles"][name] = {"error": f"{type(e).__name__}: {str(e)[:200]}"}
                continue
            row["tiles"][name] = {"ms": ms, "speed": row["ms_torch"] / ms if ms else None, "identical": same}
        rows.append(row)
        best = {pipe: max(((v["speed"], k) for k, v in row["tiles"].items()
                           if v.get("speed") and k.endswith("xpipe") == pipe), default=(0.0, "none"))
                for pipe in (False, True)}
        print(f"sweep {case.m}x{case.n}x{case.k} slow: best PIPE off {best[False][1]} {best[False][0]:.2f}x, "
              f"PIPE on {best[True][1]} {best[True][0]:.2f}x; every tile torch's bytes: "
              f"{all(v.get('identical', True) for v in row['tiles'].values())}", flush=True)
        if out:
            out(rows)
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--budget", type=float, default=200)
    ap.add_argument("--seed", type=int, default=8)
    ap.add_argument("--sweep", type=int, default=0, help="promoting shapes above 5 GFLOP whose tiles are swept")
    ap.add_argument("--sweep-only", action="store_true", help="the sweep alone, with the whole budget")
    ap.add_argument("--pipe", choices=("on", "off"), help="BITORDER_FP8_PIPE for the realistic set")
    args = ap.parse_args()
    os.environ["BITORDER_UNVERIFIED"] = "1"
    if args.pipe:
        os.environ[fp8.PIPE_ENV] = "1" if args.pipe == "on" else "0"
    cases = [c for fast in (False, True) for c in realistic_cases(fast, "bf16")]
    random.Random(args.seed).shuffle(cases)
    if args.sweep:
        from bench_gemm import write_sweep  # noqa: E402
        os.makedirs(os.path.join(args.out, "sweep_fp8"), exist_ok=True)

        def write(rows):
            for r in rows:   # write_sweep reads ms_cublas as the reference's time
                r["ms_cublas"] = r["ms_torch"]
            return write_sweep(os.path.join(args.out, "sweep_fp8"), rows)
        rows = sweep(cases, args.sweep, args.budget if args.sweep_only else args.budget / 2, write)
        rc = write(rows)
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
        t_ref, t_ours, g_ref, g_ours = time_pair(lambda: torch._scaled_mm(a, b, sa, sb, **kw),
                                                 lambda: bitorder.scaled_mm(a, b, sa, sb, **kw), 2 * case.m * case.n * case.k)
        rows.append({"group": case.group, "m": case.m, "n": case.n, "k": case.k, "fast_accum": case.fast_accum,
                     "gflop": 2 * case.m * case.n * case.k / 1e9, "identical": bool(torch.equal(bits(ours), bits(ref))),
                     "path": p.path, "desc": str(p.desc), "speed": t_ref / t_ours,
                     "speed_graph": g_ref / g_ours if g_ref and g_ours else None})
    groups, overall = summarize(rows, lambda r: f"{'fast' if r['fast_accum'] else 'slow'}:{r['group'].split(':')[1]}")
    report = {"device": torch.cuda.get_device_name(), "rows": rows, "groups": groups, "overall": overall,
              "identical": sum(r["identical"] for r in rows), "triton_path": sum(r["path"] == "triton" for r in rows),
              "n": len(rows), "planned": len(cases), "seconds": time.time() - t0,
              "env": {k: os.environ.get(k, "") for k in (fp8.PIPE_ENV, "BITORDER_FP8_TMA", "BITORDER_TMA")}}
    with open(os.path.join(args.out, "bench_fp8.json"), "w") as f:
        json.dump(report, f, indent=1)
    plot_speeds(os.path.join(args.out, "bench_fp8.png"), groups, [("speed_graph", "CUDA graphs")],
                f"bitorder.scaled_mm vs torch._scaled_mm on {report['device']}", "torch._scaled_mm time / bitorder time")
    print(json.dumps({"overall": overall, "identical": report["identical"], "n": report["n"],
                      "triton_path": report["triton_path"]}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
