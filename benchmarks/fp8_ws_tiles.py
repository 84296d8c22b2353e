"""Tiles for the warp-specialized Gluon fp8 kernel on realistic shapes (issue 6's speed floor, H200).

The 2026-12-04 realistic-set sample (benchmarks/results/2026-12-04-gpu) left four groups under 0.8x
torch._scaled_mm above 5 GFLOP under CUDA graphs: fast:down (pure chains, chain8_kernel by pointers,
64 x 64 tiles at M = 128) and the promoting gate_up, qkv and up. This times, on those shapes and a
few controls, per accumulation mode:
  fast  fp8.run's default (chain8_kernel) and run_ws(promote=0): the pure chain on the Gluon kernel
        (TMA producer warp, consumer warpgroups each one chain over all of K) at several tiles;
  slow  fp8.run's default (run_ws, 64 or 128 x 128, 4 stages) and other run_ws tiles.
Bytes, per shape, on two draws (narrow bf16; wide fp16 + bias): every variant against torch._scaled_mm
where fp8.plan gives a plain chain (the contract), else against fp8.run's default (information only).
Times: CUDA-graph medians (bench_gemm.graph_ms) on the narrow draw. Tiles never change the bits: a
mismatch here is a kernel defect, reported in the JSON and the return code.

    PYTHONPATH=src python3 benchmarks/fp8_ws_tiles.py --out DIR [--budget S]
    FP8_WS_TILES_PERSISTENT=1 ...     the persistent kernel at those tiles (writes fp8_ws_tiles_persistent.json)
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_gemm import graph_ms  # noqa: E402
from fp8_gluon_check import differ_and_time, draw, geomean  # noqa: E402
from bitorder.gemm import fp8  # noqa: E402
from bitorder.gemm.kernels_fp8_gluon import run_ws  # noqa: E402

# (m, n, k): the sample's shapes under 0.8x above 5 GFLOP, worst first, then controls at or above it
FAST = [(128, 3584, 14336), (512, 4672, 4544), (128, 4096, 16384), (512, 2048, 10944), (512, 3584, 18944),
        (512, 4544, 18176), (512, 11264, 2048), (32, 28672, 3584), (512, 10240, 8192), (512, 28672, 4096),
        (512, 6144, 2048), (512, 27648, 5120), (8192, 2304, 768), (2048, 14336, 4096), (8192, 4096, 14336)]
SLOW = [(128, 8192, 8192), (128, 11264, 2048), (512, 102400, 2048), (512, 6144, 4096), (2048, 11264, 2048),
        (32, 18176, 4544), (128, 8192, 29568), (2048, 21888, 2048), (512, 8192, 3584), (128, 12288, 4096),
        (128, 10240, 8192), (8192, 16384, 3072), (8192, 8192, 3584), (512, 32064, 3072), (2048, 8192, 3584),
        (512, 37888, 3584), (2048, 3584, 3584), (8192, 102400, 2048)]
# run_ws keyword arguments per variant (block_n, consumers, stages)
PURE = {f"ws{bn}c{c}s{s}": dict(promote=0, block_n=bn, consumers=c, stages=s)
        for bn, c, s in [(128, 2, 4), (256, 2, 3), (128, 1, 4), (256, 1, 4), (64, 1, 6), (64, 2, 6)]}
PROMOTING = {f"ws{bn}c{c}s{s}": dict(promote=128, overlap=True, block_n=bn, consumers=c, stages=s)
             for bn, c, s in [(128, 1, 4), (128, 2, 4), (64, 1, 6), (64, 2, 6), (128, 2, 6)]}
# FP8_WS_TILES_PERSISTENT=1: the same tiles with one program per SM walking the tiles (kernels_fp8_gluon's PERSISTENT) instead
PERSISTENT = os.environ.get("FP8_WS_TILES_PERSISTENT", "") == "1"
if PERSISTENT:
    PURE = {"p" + k: dict(v, persistent=True) for k, v in PURE.items() if v["consumers"] == 2 or v["block_n"] == 256}
    PROMOTING = {"p" + k: dict(v, persistent=True) for k, v in PROMOTING.items() if v["consumers"] == 2}


def one_shape(m, n, k, fast, seed):
    """Bytes of every variant on two draws, then CUDA-graph times on the narrow one."""
    variants = PURE if fast else PROMOTING
    sa, sb = torch.tensor(0.37, device="cuda"), torch.tensor(1.7000001, device="cuda")
    row = {"m": m, "n": n, "k": k, "fast_accum": fast, "gflop": 2 * m * n * k / 1e9, "differ": {}, "ms": {}}
    for j, (kind, out, with_bias) in enumerate((("narrow", torch.bfloat16, False), ("wide", torch.float16, True))):
        a, b = draw(m, n, k, kind, seed + j)
        bias = (torch.randn(n, device="cuda") * 4).to(out) if with_bias else None
        p = fp8.plan(a, b, sa, sb, bias, out, fast)
        plain = p.path == "triton" and p.desc.family == "plain"
        ref = torch._scaled_mm(a, b, sa, sb, bias=bias, out_dtype=out, use_fast_accum=fast)
        default = (lambda: fp8.run(a, b, sa, sb, p.desc, bias, out)) if plain else None
        base = ref if plain else (default() if default else ref)
        row.setdefault("plan", str(p.desc) if p.desc else p.reason)
        row["plain"] = plain
        outs = {"default": default} if default else {}
        outs.update({v: (lambda kw=kw: run_ws(a, b, sa, sb, bias, out, **kw)) for v, kw in variants.items()})
        differ_and_time(row, outs, base, kind, timed=j == 0)
        if j == 0:
            row["ms"]["torch"] = graph_ms(lambda: torch._scaled_mm(a, b, sa, sb, out_dtype=out, use_fast_accum=fast), 30)
    row["speed"] = {v: row["ms"]["torch"] / t for v, t in row["ms"].items() if v != "torch" and t and row["ms"]["torch"]}
    return row


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--budget", type=float, default=150, help="seconds; no new shape starts after it")
    ap.add_argument("--seed", type=int, default=20261204)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    # alternate the two lists so that a budget cut leaves out the controls of both, not a whole mode
    order = [x for pair in zip([(s, True) for s in FAST], [(s, False) for s in SLOW]) for x in pair]
    order += [(s, True) for s in FAST[len(SLOW):]] + [(s, False) for s in SLOW[len(FAST):]]
    rows, t0 = [], time.time()
    for i, ((m, n, k), fast) in enumerate(order):
        if time.time() - t0 > args.budget:
            print(f"budget spent: {len(order) - i} shapes not run", flush=True)
            break
        try:
            row = one_shape(m, n, k, fast, args.seed + 10 * i)
        except Exception as e:  # noqa: BLE001
            row = {"m": m, "n": n, "k": k, "fast_accum": fast, "error": f"{type(e).__name__}: {e}"[:500]}
        rows.append(row)
        best = max(((s, v) for v, s in row.get("speed", {}).items()), default=(0, "none"))
        bad = {v: d for v, d in row.get("differ", {}).items() if d}
        print(f"{'fast' if fast else 'slow'} {m}x{n}x{k}: default {row.get('speed', {}).get('default', 0):.3f}, "
              f"best {best[1]} {best[0]:.3f}; differ {bad or 0}", flush=True)
    ok = [r for r in rows if "error" not in r]
    summary = {"shapes": len(rows), "errors": len(rows) - len(ok),
               "mismatching": sum(isinstance(d, int) and d > 0 for r in ok for d in r["differ"].values()),
               "compared_against_torch": sum(len(r["differ"]) for r in ok if r["plain"]),
               "seconds": time.time() - t0}
    for fast, variants in ((True, PURE), (False, PROMOTING)):
        mode = "fast" if fast else "slow"
        for v in ["default", *variants]:
            summary[f"{mode}:{v}:geomean_above_5gflop"] = geomean(
                [r["speed"].get(v) for r in ok if r["fast_accum"] == fast and r["gflop"] > 5])
        # the best tile per shape: what a tile rule could reach at most
        summary[f"{mode}:best:geomean_above_5gflop"] = geomean(
            [max(r["speed"].values()) for r in ok if r["fast_accum"] == fast and r["gflop"] > 5 and r["speed"]])
    name = "fp8_ws_tiles_persistent.json" if PERSISTENT else "fp8_ws_tiles.json"
    with open(os.path.join(args.out, name), "w") as f:
        json.dump({"device": torch.cuda.get_device_name(), "torch": torch.__version__, "summary": summary,
                   "rows": rows}, f, indent=1)
    print(json.dumps(summary, indent=1))
    return 0 if not summary["mismatching"] and not summary["errors"] else 1


if __name__ == "__main__":
    sys.exit(main())
