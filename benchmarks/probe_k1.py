"""K = 1 products without a bias (cuBLAS's gemmk1, algorithm 12) on designed inputs: signed zeros,
fp32-subnormal and overflowing bf16 products, against the two models bitorder could plan
(`api.k1_product`: the exact product rounded once, or added to +0 first: add_zero=True).
GPU only. Writes OUT/probe_k1.json: per shape and dtype the planned path, the answer, and which
model returned torch's bytes on every draw.

    python benchmarks/probe_k1.py --out OUT [--seed S]
"""
from __future__ import annotations

import argparse
import json
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "src"))
from bitorder.gemm import api  # noqa: E402

SHAPES = [(24, 1, 22), (11, 174, 1), (5, 1, 4096), (4, 9665, 1), (62, 1, 1381), (1, 481, 1013), (1, 779, 433),
          (28, 9567, 1), (3, 300, 300)]   # (batch, M, N); batch 1: a 2-D product


def designed(shape, dtype, seed: int, kind: int):
    """a (.., M, 1), b (.., 1, N): draws with planted signed zeros (kind 0), tiny products (1: fp32
    subnormal for bf16), huge ones (2: past bf16's / fp16's range), and plain normal draws (3)."""
    g = torch.Generator(device="cuda").manual_seed(seed)
    B, M, N = shape
    a = torch.randn((B, M, 1), generator=g, device="cuda")
    b = torch.randn((B, 1, N), generator=g, device="cuda")
    if kind == 0:
        a[..., ::3, :] = 0.0
        a[..., 1::3, :] = -0.0
        b[..., ::2] = -b[..., ::2].abs()
    elif kind == 1:
        a = a.sign() * 2.0 ** (-64 - (a.abs() * 4).floor().clamp(max=6))
        b = b.sign() * 2.0 ** (-62 - (b.abs() * 4).floor().clamp(max=6))
    elif kind == 2:
        big = 2.0 ** 126 if dtype == torch.bfloat16 else 300.0
        a, b = a * big, b * big
    a, b = a.to(dtype), b.to(dtype)
    return (a[0], b[0]) if B == 1 else (a, b)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--seed", type=int, default=20261240)
    args = ap.parse_args()
    rows = []
    for dtype in (torch.float16, torch.bfloat16):
        for i, shape in enumerate(SHAPES):
            a0, b0 = designed(shape, dtype, args.seed, 3)
            p = api.plan(a0, b0)
            fits = {"keep": True, "add": True}
            for kind in range(4):
                a, b = designed(shape, dtype, args.seed + 17 * i + kind, kind)
                want = torch.matmul(a, b).view(torch.int16)
                for model in fits:
                    got = api.k1_product(a, b, add_zero=model == "add")
                    fits[model] &= bool(torch.equal(got.view(torch.int16), want))
            rows.append({"dtype": str(dtype).split(".")[1], "shape": shape, "path": p.path,
                         "answer": {k: p.answer.get(k) for k in ("algo_id", "custom_option", "split_k")} if p.answer else None,
                         "fits": fits})
            print(rows[-1], flush=True)
    with open(os.path.join(args.out, "probe_k1.json"), "w") as f:
        json.dump({"device": torch.cuda.get_device_name(), "rows": rows}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
