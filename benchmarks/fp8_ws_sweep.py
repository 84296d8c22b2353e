"""Promoting fp8 tiles swept on the realistic set's slowest shapes (issue 6's last group under the floor, H200).

The 2026-12-04b whole realistic set (benchmarks/results/2026-12-04b-gpu/whole-set) left slow:qkv at 0.798x
torch._scaled_mm above 5 GFLOP. Its slowest promoting shapes are of two kinds: grids far under one wave (M = 128,
large K: 16-48 tiles of 128 x 128 on 132 SMs, 0.40-0.60x) and persistent grids just past one wave (142-160
tiles, the second round nearly empty, 0.52-0.67x). Smaller tiles fill the first kind and even out the second.
This times, on the --worst slowest promoting shapes above 5 GFLOP of a bench_fp8 report and --controls of its
fastest, fp8.run's default and run_ws at every TILES entry (persistent ones: one program per SM at most), each
byte-checked against torch._scaled_mm where fp8.plan gives a plain promoting chain (else against fp8.run's
default, information only). benchmarks/fit_ws_tiles.py fits a cost per tile from the JSON and names the rule.

    PYTHONPATH=src python3 benchmarks/fp8_ws_sweep.py --from WHOLE_SET.json --out DIR [--worst N] [--controls N]
    python3 benchmarks/fp8_ws_sweep.py --from WHOLE_SET.json --out DIR --write-shapes SHAPES.json   (CPU: the list
        alone, so that a call need not carry benchmarks/results)
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_gemm import graph_ms  # noqa: E402  (benchmarks/ is the script's folder)
from fp8_gluon_check import differ_and_time, draw, geomean  # noqa: E402
from bitorder.gemm import fp8  # noqa: E402
from bitorder.gemm.fp8 import WsTile  # noqa: E402
from bitorder.gemm.kernels_fp8_gluon import run_ws  # noqa: E402

# fp8.WsTile(block_n, consumers, stages, persistent, maxnreg, extra_n): 64 * consumers rows, block_n + extra_n
# columns. Persistent tiles run one program per SM; the two one-consumer tiles at maxnreg 168 run one program per
# tile, two to an SM; the last two are 144 and 80 columns wide (cuBLAS's own tiles include 64x144 and 128x80).
# Two consumers only where M > 64 (a second warpgroup past M multiplies zeros).
TILES = [WsTile(128, 2, 6, True), WsTile(64, 2, 6, True), WsTile(32, 2, 8, True), WsTile(128, 1, 6, True),
         WsTile(64, 1, 6, True), WsTile(32, 1, 8, True), WsTile(64, 1, 6, False, 168), WsTile(32, 1, 8, False, 168),
         WsTile(128, 2, 6, True, None, 16), WsTile(64, 2, 6, True, None, 16)]


def name(tile) -> str:
    return WsTile(*tile).label()


def pick(report: dict, worst: int, controls: int) -> list:
    """Distinct promoting (m, n, k) above 5 GFLOP: the `worst` slowest of the report, then `controls` spread evenly
    over the rest (slowest to fastest: a rule fitted to the sweep must not lose the shapes that already pass)."""
    seen, shapes = set(), []
    for r in sorted((r for r in report["rows"] if not r["fast_accum"] and r["gflop"] > 5 and r.get("speed_graph")),
                    key=lambda r: r["speed_graph"]):
        if (r["m"], r["n"], r["k"]) not in seen:
            seen.add((r["m"], r["n"], r["k"]))
            shapes.append(((r["m"], r["n"], r["k"]), r["speed_graph"]))
    rest = shapes[worst:]
    spread = list(dict.fromkeys(rest[round(i * (len(rest) - 1) / max(controls - 1, 1))] for i in range(controls))
                  if rest and controls else [])
    # interleaved (two slow shapes, then a control): a budget cut leaves out some of each, not all the controls
    order = []
    for i in range(max(len(spread), -(-worst // 2))):
        order += shapes[2 * i:min(2 * i + 2, worst)] + spread[i:i + 1]
    return order


def one_shape(m, n, k, seed):
    """Bytes of every tile on a narrow and a wide bf16 draw, CUDA-graph times on the first."""
    sa, sb = torch.tensor(0.37, device="cuda"), torch.tensor(1.7000001, device="cuda")
    row = {"m": m, "n": n, "k": k, "gflop": 2 * m * n * k / 1e9, "differ": {}, "ms": {}}
    tiles = [t for t in TILES if t.consumers == 1 or m > 64]
    # both draws bf16 without bias: one compile per tile (the gate checks fp16, fp32 and bias on what the rule takes)
    for j, (kind, out, with_bias) in enumerate((("narrow", torch.bfloat16, False), ("wide", torch.bfloat16, False))):
        a, b = draw(m, n, k, kind, seed + j)
        bias = (torch.randn(n, device="cuda") * 4).to(out) if with_bias else None
        p = fp8.plan(a, b, sa, sb, bias, out, False)
        plain = p.path == "triton" and p.desc.family == "plain" and p.desc.promotion == 128
        row.setdefault("plan", str(p.desc) if p.desc else p.reason)
        row["plain"] = plain
        ref = torch._scaled_mm(a, b, sa, sb, bias=bias, out_dtype=out, use_fast_accum=False)
        default = lambda: fp8.scaled_mm(a, b, sa, sb, bias=bias, out_dtype=out, use_fast_accum=False)  # noqa: E731
        base = ref if plain else default()
        outs = {"default": default}
        outs.update({name(t): (lambda t=t: run_ws(a, b, sa, sb, bias, out, block_n=t.block_n, consumers=t.consumers,
                                                  stages=t.stages, promote=128, overlap=True, persistent=t.persistent,
                                                  maxnreg=t.maxnreg, extra_n=t.extra_n)) for t in tiles})
        differ_and_time(row, outs, base, kind, timed=j == 0)
        if j == 0:
            row["ms"]["torch"] = graph_ms(lambda: torch._scaled_mm(a, b, sa, sb, out_dtype=out), 30)
    row["speed"] = {v: row["ms"]["torch"] / t for v, t in row["ms"].items() if v != "torch" and t and row["ms"]["torch"]}
    return row


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--from", dest="source", required=True,
                    help="a bench_fp8.json of the realistic set, or a list of [[m, n, k], speed] (--write-shapes)")
    ap.add_argument("--write-shapes", help="only write the picked shapes to this file (CPU; no GPU needed)")
    ap.add_argument("--out", required=True)
    ap.add_argument("--worst", type=int, default=36)
    ap.add_argument("--controls", type=int, default=20)
    ap.add_argument("--budget", type=float, default=240, help="seconds; no new shape starts after it")
    ap.add_argument("--seed", type=int, default=20261205)
    args = ap.parse_args()
    with open(args.source) as f:
        source = json.load(f)
    shapes = [(tuple(s), v) for s, v in source] if isinstance(source, list) else pick(source, args.worst, args.controls)
    if args.write_shapes:
        with open(args.write_shapes, "w") as f:
            json.dump([[list(s), v] for s, v in shapes], f)
        return 0
    os.makedirs(args.out, exist_ok=True)
    rows, t0 = [], time.time()
    for i, ((m, n, k), before) in enumerate(shapes):
        if time.time() - t0 > args.budget:
            print(f"budget spent: {len(shapes) - i} shapes not run", flush=True)
            break
        try:
            row = one_shape(m, n, k, args.seed + 10 * i)
        except Exception as e:  # noqa: BLE001
            row = {"m": m, "n": n, "k": k, "error": f"{type(e).__name__}: {e}"[:500]}
        row["speed_in_source"] = before
        rows.append(row)
        best = max(((s, v) for v, s in row.get("speed", {}).items()), default=(0, "none"))
        bad = {v: d for v, d in row.get("differ", {}).items() if d}
        print(f"{m}x{n}x{k}: default {row.get('speed', {}).get('default', 0):.3f}, best {best[1]} {best[0]:.3f}; "
              f"differ {bad or 0}", flush=True)
    ok = [r for r in rows if "error" not in r]
    summary = {"shapes": len(rows), "of": len(shapes), "errors": len(rows) - len(ok),
               "mismatching": sum(isinstance(d, int) and d > 0 for r in ok for d in r["differ"].values()),
               "compared_against_torch": sum(len(r["differ"]) for r in ok if r["plain"]),
               "seconds": time.time() - t0}
    for v in ["default", *map(name, TILES)]:
        summary[f"{v}:geomean"] = geomean([r["speed"].get(v) for r in ok])
    summary["best:geomean"] = geomean([max(r["speed"].values()) for r in ok if r["speed"]])
    with open(os.path.join(args.out, "fp8_ws_sweep.json"), "w") as f:
        json.dump({"device": torch.cuda.get_device_name(), "torch": torch.__version__, "sms": fp8.launch._sm_count(),
                   "tiles": TILES, "summary": summary, "rows": rows}, f, indent=1)
    print(json.dumps(summary, indent=1))
    return 0 if not summary["mismatching"] and not summary["errors"] else 1


if __name__ == "__main__":
    sys.exit(main())
