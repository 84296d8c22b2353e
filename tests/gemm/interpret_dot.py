"""Run the dot kernels (bitorder.gemm.kernels_simt: dot_partials_kernel + dot_reduce_kernel) under
Triton's CPU interpreter (TRITON_INTERPRET=1) against the CPU twin (bitorder.emulate.dot.matmul),
byte for byte, on wide-range and cancelling draws: grids 1, 3 and 5 blocks (more than 128 pairs per
block, several steps per thread, partials past 128 with grid 130), odd and even K, x / y split on
and off, pairs and single elements (vec 2 / 1), with and without a bias, fp16 and fp32 outputs;
then a row and a column of outputs in one launch, their vectors strided or contiguous along K, each
output against the twin's dot of its own vectors. Prints one line per failure, exits nonzero if any."""
import itertools
import os
import sys

assert os.environ.get("TRITON_INTERPRET") == "1", "run with TRITON_INTERPRET=1"
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import interpret_shim  # noqa: E402,F401
import numpy as np  # noqa: E402
import torch  # noqa: E402

import bitorder  # noqa: E402
from bitorder.emulate import dot as twin  # noqa: E402
from bitorder.gemm.simt import dot  # noqa: E402

print(f"bitorder from {bitorder.__file__}")
QUICK = os.environ.get("SIMT_QUICK") == "1"
# CI's share (SIMT_SAMPLE=1): grid 130 (the reduce's partials past 128; 130 programs a launch, the
# costly case here) with pairs split x / y and fp32 outputs only; the split, single elements and
# fp16 outputs run on the smaller grids as by hand
SAMPLE = os.environ.get("SIMT_SAMPLE") == "1"
OUT = {"fp16": (torch.float16, np.uint16), "fp32": (torch.float32, np.uint32)}
failures = cases = 0
seen = {}
for (grid, k), (split, vec), out in itertools.product(((1, 3), (1, 255), (3, 256), (3, 1000), (5, 3001), (130, 33333)),
                                                      ((True, 2), (False, 2), (True, 1)), OUT):
    if QUICK and (k > 5000 or out == "fp16"):
        continue
    if vec == 1 and out == "fp16" and k < 3000:      # (CI time: single elements keep the fp32 outputs and long K)
        continue
    if SAMPLE and grid == 130 and ((split, vec) != (True, 2) or out != "fp32"):
        continue
    rng = np.random.default_rng(grid * 100003 + k)
    a = (rng.standard_normal((1, k)) * 2.0 ** rng.integers(-10, 6, (1, k))).astype(np.float16)
    b = (rng.standard_normal((k, 1)) * 2.0 ** rng.integers(-10, 6, (k, 1))).astype(np.float16)
    if k > 8:                                     # half of K cancels the other: every rounding shows
        h = k // 2
        a[0, h:2 * h], b[h:2 * h, 0] = -a[0, :h], b[:h, 0]
    order = twin.DotOrder(grid, split, vec)
    for with_bias in (False, True):
        bias = np.array([0.375], np.float16) if with_bias else None
        want = twin.matmul(a, b, order, bias=bias, out_dtype=out)
        got = dot(torch.from_numpy(a), torch.from_numpy(b), order, None if bias is None else torch.from_numpy(bias),
                  out_dtype=OUT[out][0]).numpy()
        cases += 1
        if out == "fp32":
            seen.setdefault((grid, k, with_bias), set()).add(want.tobytes())
        if not np.array_equal(got.view(OUT[out][1]), want.view(OUT[out][1])):
            failures += 1
            print(f"FAIL grid={grid} K={k} {order} {out} bias={with_bias}: {got.ravel()} != {want.ravel()}")
# a row (M = 1) and a column (N = 1) of outputs in one launch, each output's vectors contiguous or strided
for (grid, k, r), vec, column in itertools.product(((1, 300, 3), (3, 1001, 5)), (2, 1), (False, True)):
    rng = np.random.default_rng(grid * 7 + k + r)
    mat = (rng.standard_normal((r, k)) * 2.0 ** rng.integers(-10, 6, (r, k))).astype(np.float16)
    v = (rng.standard_normal((1, k)) * 2.0 ** rng.integers(-10, 6, (1, k))).astype(np.float16)
    # tm (r, K): output i's vector in row i, contiguous along K (vec 2) or strided by r (vec 1)
    tm = torch.from_numpy(mat) if vec == 2 else torch.from_numpy(np.ascontiguousarray(mat.T)).t()
    a, b = (tm, torch.from_numpy(v).t()) if column else (torch.from_numpy(v), tm.t())
    bias = torch.from_numpy(np.array([0.375] if column else np.linspace(-1, 1, r), np.float16))
    order = twin.DotOrder(grid, True, vec)
    got = dot(a, b, order, bias=bias, out_dtype=torch.float32).numpy().ravel()
    for i in range(r):
        want = twin.matmul(mat[i:i + 1], v.T, order, bias=bias.numpy()[[0 if column else i]], out_dtype="fp32").ravel()
        cases += 1
        if got[i].view(np.uint32) != want[0].view(np.uint32):
            failures += 1
            print(f"FAIL {'column' if column else 'row'} of {r} grid={grid} K={k} vec={vec} output {i}: {got[i]} != {want[0]}")
distinct = max(len(v) for v in seen.values())
print(f"{cases} cases, {failures} failures; the split on and off gave up to {distinct} byte patterns per draw")
sys.exit(1 if failures else 0)
