"""A reproduction, with no Triton and no bitorder kernel in it, of cuBLAS 13.1's split-K tail drop.

For torch.matmul(a, b) with a (M, K) and b (K, N), when cuBLAS picks nvjet split-K with s parts
and floor(K/s) is a multiple of 64 while s does not divide K, the products k >= s * floor(K/s)
are never summed. With a one-hot row (a[0, k] = 1 at such a k) and b = ones, the exact result
is 1; cuBLAS returns 0. The shapes are from bitorder's gate-1 mismatches (benchmarks/results/
2026-11-29-gate-2); the cuBLASLt log names the split each call ran. FP8_CASES do the same through
torch._scaled_mm (e4m3, unit tensor-wise scales) at the fp8 entry's granule 128: the 2026-12-02c fp8
gate's one mismatch (8x16x659056, split 132: floor(K/s) = 4992 = 39 x 128).

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
# (out dtype, use_fast_accum, M, N, K): a (M, K) row-major @ b (K, N) column-major, as torch._scaled_mm needs
FP8_CASES = [("fp32", False, 8, 16, 659056), ("bf16", False, 8, 16, 659056), ("fp32", True, 8, 16, 659056)]


def operand(rows, cols, trans, dt):
    x = torch.zeros((cols, rows) if trans else (rows, cols), dtype=dt, device="cuda")
    return x.t() if trans else x


def report(row, name):
    wrong = row["wrong"]
    print(f"{name}: " + ("cuBLAS sums every product" if not wrong else
          f"products at k={[w['k'] for w in wrong]} are not summed (expected 1, got {[w['got'] for w in wrong]})"))


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
        report(rows[-1], f"{dtype} {m}x{n}x{k} {layout}")
    one = torch.ones((), dtype=torch.float32, device="cuda")
    for out, fast, m, n, k in FP8_CASES:
        a = torch.zeros((m, k), dtype=torch.float8_e4m3fn, device="cuda")
        b = torch.ones((n, k), dtype=torch.float8_e4m3fn, device="cuda").t()     # column-major (K, N)
        dt = {"fp32": torch.float32, "bf16": torch.bfloat16}[out]
        wrong = []
        for pos in (0, k // 2, k - 1):
            a.zero_()
            a[0, pos] = 1
            got = float(torch._scaled_mm(a, b, one, one, out_dtype=dt, use_fast_accum=fast)[0, 0])
            if got != 1.0:
                wrong.append({"k": pos, "got": got})
        rows.append({"dtype": "e4m3", "out": out, "fast_accum": fast, "m": m, "n": n, "k": k, "wrong": wrong})
        report(rows[-1], f"e4m3 -> {out} fast_accum={fast} {m}x{n}x{k}")
    if args.out:
        with open(os.path.join(args.out, "repro-tail-drop.json"), "w") as f:
            json.dump(rows, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
