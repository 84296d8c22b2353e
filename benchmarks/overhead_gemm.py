"""Where bitorder.linear's host time goes (GPU): a cProfile of small calls, against a bare
Triton launch with as many arguments and F.linear. Writes overhead.txt and overhead.json.

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
    for name, fn in (("bitorder.linear", lambda: bitorder.linear(x, w)), ("split", lambda: bitorder.linear(xs, ws))):
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
