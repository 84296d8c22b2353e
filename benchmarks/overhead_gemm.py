"""Where bitorder.linear's host time goes (GPU): a cProfile of small calls, against a bare
Triton launch with as many arguments and F.linear. Writes overhead.txt and overhead.json.
The same for bitorder.scaled_mm against torch._scaled_mm (fp8, both accumulation modes): its plan,
its Gluon kernel's launch alone (run_ws) and a cProfile, since the realistic set ran at 0.65x torch
under do_bench (host time included) against 0.83x under CUDA graphs (2026-12-04).

    python benchmarks/overhead_gemm.py --out DIR
"""
from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import time

import torch
import torch.nn.functional as F
import triton
import triton.language as tl

import bitorder
from bitorder.draws import torch_draw
from bitorder.gemm import api


@triton.jit
def _empty(a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p, A: tl.constexpr, B: tl.constexpr):
    pass


def per_call_us(fn, reps=2000):
    fn()
    torch.cuda.synchronize()
    t = time.perf_counter()
    for _ in range(reps):
        fn()
    torch.cuda.synchronize()
    return (time.perf_counter() - t) / reps * 1e6


def fp8_overhead(res: dict) -> list:
    """Host time of small fp8 calls (128 x 256 x 256, e4m3, tensor-wise scales, bf16 out) into res; returns the
    (name, call) pairs to profile."""
    from bitorder.gemm import fp8
    from bitorder.gemm.kernels_fp8_gluon import run_ws
    g = torch.Generator(device="cuda").manual_seed(5)
    a = (torch.randn(128, 256, device="cuda", generator=g) * 2).to(torch.float8_e4m3fn)
    b = (torch.randn(256, 256, device="cuda", generator=g) * 2).to(torch.float8_e4m3fn).t()
    sa, sb = torch.tensor(0.5, device="cuda"), torch.tensor(1.5, device="cuda")
    calls = []
    for fast in (False, True):
        mode = "fast" if fast else "slow"
        kw = dict(out_dtype=torch.bfloat16, use_fast_accum=fast)
        res[f"torch._scaled_mm {mode}"] = per_call_us(lambda: torch._scaled_mm(a, b, sa, sb, **kw))
        res[f"bitorder.scaled_mm {mode}"] = per_call_us(lambda: bitorder.scaled_mm(a, b, sa, sb, **kw))
        res[f"fp8.plan {mode}"] = per_call_us(lambda: fp8.plan(a, b, sa, sb, None, torch.bfloat16, fast))
        res[f"plan {mode}"] = str(fp8.plan(a, b, sa, sb, None, torch.bfloat16, fast).desc)
        calls.append((f"bitorder.scaled_mm {mode}", lambda kw=kw: bitorder.scaled_mm(a, b, sa, sb, **kw)))
    res["run_ws (promoting, 128 x 128)"] = per_call_us(lambda: run_ws(a, b, sa, sb, overlap=True))
    from bitorder.gemm import kernels_fp8_gluon as kg
    kept, kg.FAST_LAUNCH = kg.FAST_LAUNCH, True    # BITORDER_FP8_FAST_LAUNCH's kept kernel, then back
    res["run_ws (promoting, kept launch)"] = per_call_us(lambda: run_ws(a, b, sa, sb, overlap=True))
    res["bitorder.scaled_mm slow (kept launch)"] = per_call_us(
        lambda: bitorder.scaled_mm(a, b, sa, sb, out_dtype=torch.bfloat16, use_fast_accum=False))
    kg.FAST_LAUNCH = kept
    res["fp8.ws_tile"] = per_call_us(lambda: fp8.ws_tile(128, 256, True, 132, 256))
    return calls


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    x = torch_draw((8, 64), "fp16", 1, 1, "narrow")
    w = torch_draw((64, 64), "fp16", 1, 2, "narrow")
    xs = torch_draw((8, 4096), "fp16", 1, 1, "narrow")   # a split-K call: two launches
    ws = torch_draw((4096, 4096), "fp16", 1, 2, "narrow")
    t = torch.empty(16, device="cuda")
    from bitorder.gemm import launch
    fast = launch.FAST
    launch.FAST = False  # the JIT's own launch first, then the kept kernels: both in one run
    jit = {"bitorder.linear (JIT launch)": per_call_us(lambda: bitorder.linear(x, w)),
           "bitorder.linear split (JIT launch)": per_call_us(lambda: bitorder.linear(xs, ws))}
    launch.FAST = True
    kept = {"bitorder.linear (kept kernels)": per_call_us(lambda: bitorder.linear(x, w)),
            "bitorder.linear split (kept kernels)": per_call_us(lambda: bitorder.linear(xs, ws))}
    launch.FAST = fast
    res = {
        "F.linear": per_call_us(lambda: F.linear(x, w)),
        **jit, **kept, "fast_launch_default": fast,
        "bitorder.linear": per_call_us(lambda: bitorder.linear(x, w)),
        "bitorder.linear split": per_call_us(lambda: bitorder.linear(xs, ws)),
        "plan split": str(api.plan(xs, ws.t())),
        "triton launch, 16 args": per_call_us(lambda: _empty[(1,)](t, t, t, t, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12,
                                                                  A=True, B=False)),
        "torch.empty": per_call_us(lambda: torch.empty((8, 64), dtype=torch.float16, device="cuda")),
    }
    text = io.StringIO()
    fp8_calls = fp8_overhead(res)
    for name, fn in (("bitorder.linear", lambda: bitorder.linear(x, w)), ("split", lambda: bitorder.linear(xs, ws)),
                     *fp8_calls):
        prof = cProfile.Profile()
        prof.enable()
        for _ in range(500):
            fn()
        prof.disable()
        torch.cuda.synchronize()
        text.write(f"==== {name} (500 calls)\n")
        pstats.Stats(prof, stream=text).sort_stats("tottime").print_stats(35)
    with open(os.path.join(args.out, "overhead.txt"), "w") as f:
        f.write(text.getvalue())
    with open(os.path.join(args.out, "overhead.json"), "w") as f:
        json.dump(res, f, indent=1)
    print(json.dumps(res, indent=1))


if __name__ == "__main__":
    main()
