"""A reproduction, with no Triton and no bitorder kernel in it, of cuBLAS 13.1's split-K tail drop.

For torch.matmul(a, b) with a (M, K) and b (K, N), when cuBLAS picks nvjet split-K with s parts
and floor(K/s) is a multiple of 64 while s does not divide K, the products k >= s * floor(K/s)
are never summed. With a one-hot row (a[0, k] = 1 at such a k) and b = ones, the exact result
is 1; cuBLAS returns 0. The shapes are from bitorder's gate-1 mismatches (benchmarks/results/
2026-11-29-gate-2); the cuBLASLt log names the split each call ran.

    python benchmarks/repro_cublas_tail_drop.py [--out DIR]
"""
import argparse
import json
import os
import sys

os.environ.setdefault("CUBLASLT_LOG_LEVEL", "2")
os.environ.setdefault("CUBLASLT_LOG_FILE", "/tmp/repro-cublaslt.log")
import torch  # noqa: E402

CASES = [  # (dtype, M, N, K, layout) from gate-1; cuBLAS answered split s with floor(K/s) % 64 == 0
    ("fp16", 24, 8, 33304, "nt"), ("fp16", 8, 272, 14088, "tt"), ("bf16", 8, 8, 60200, "tt"),
    ("fp16", 4384, 24, 40840, "tt"), ("fp16", 8, 2360, 25608, "nn"), ("bf16", 72, 8, 25544, "tt")]


def operand(rows, cols, trans, dt):
    x = torch.zeros((cols, rows) if trans else (rows, cols), dtype=dt, device="cuda")
    return x.t() if trans else x


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out")
    args = ap.parse_args()
    rows = []
    for dtype, m, n, k, layout in CASES:
        dt = {"fp16": torch.float16, "bf16": torch.bfloat16}[dtype]
        a = operand(m, k, layout[0] == "t", dt)
        b = operand(k, n, layout[1] == "t", dt)
        b.fill_(1)
        wrong = []
        for pos in (0, k // 2, k - 1):       # the last product lies in the dropped tail
            a.zero_()
            a[0, pos] = 1
            got = float(torch.matmul(a, b)[0, 0])
            if got != 1.0:
                wrong.append({"k": pos, "got": got})
        rows.append({"dtype": dtype, "m": m, "n": n, "k": k, "layout": layout, "wrong": wrong})
        print(f"{dtype} {m}x{n}x{k} {layout}: " + ("cuBLAS sums every product" if not wrong else
              f"products at k={[w['k'] for w in wrong]} are not summed (expected 1, got {[w['got'] for w in wrong]})"))
    if args.out:
        with open(os.path.join(args.out, "repro-tail-drop.json"), "w") as f:
            json.dump(rows, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
