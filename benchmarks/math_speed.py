"""The shared exp/log's cost on the GPU against Triton's own tl.exp / tl.log (approximate ex2/lg2).

One elementwise kernel over 2^26 float32 values, each function alone, do_bench medians; the
bytes moved are the same, so the difference is the arithmetic. Writes math_speed.json.

    python benchmarks/math_speed.py --out DIR
"""
from __future__ import annotations

import argparse
import json
import os
import sys

import torch
import triton
import triton.language as tl

from bitorder.math import tl_exp, tl_log


@triton.jit
def _ew(x_ptr, y_ptr, n, FN: tl.constexpr, B: tl.constexpr):
    o = tl.program_id(0).to(tl.int64) * B + tl.arange(0, B)
    x = tl.load(x_ptr + o, mask=o < n)
    if FN == 0:
        y = tl.exp(x)
    elif FN == 1:
        y = tl_exp(x)
    elif FN == 2:
        y = tl.log(x)
    else:
        y = tl_log(x)
    tl.store(y_ptr + o, y, mask=o < n)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    n = 1 << 26
    x = torch.rand(n, device="cuda") * 40 - 20
    y = torch.empty_like(x)
    ms = {}
    for code, name in enumerate(("tl.exp", "bitorder tl_exp", "tl.log", "bitorder tl_log")):
        xin = x.abs() + 1e-3 if "log" in name else x
        fn = lambda: _ew[(triton.cdiv(n, 1024),)](xin, y, n, FN=code, B=1024)  # noqa: E731
        ms[name] = triton.testing.do_bench(fn, warmup=10, rep=100, return_mode="median")
    res = {"device": torch.cuda.get_device_name(), "elements": n, "ms": ms,
           "exp_cost": ms["bitorder tl_exp"] / ms["tl.exp"], "log_cost": ms["bitorder tl_log"] / ms["tl.log"]}
    with open(os.path.join(args.out, "math_speed.json"), "w") as f:
        json.dump(res, f, indent=1)
    print(json.dumps(res, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
