"""Pinned sums under Triton's CPU interpreter against the CPU reference, bit for bit.

The interpreter folds each size-2 reduction with one combine, as the GPU lowering does, so
the tree the extension builds is the tree that runs: it must equal bitorder.emulate's
neighbours-first tree on data chosen to expose the order. Prints failures; exits nonzero.
"""
import os
import sys

assert os.environ.get("TRITON_INTERPRET") == "1", "run with TRITON_INTERPRET=1"
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import interpret_shim  # noqa: E402,F401
import numpy as np  # noqa: E402
import torch  # noqa: E402
import triton  # noqa: E402
import triton.language as tl  # noqa: E402

import bitorder  # noqa: E402
from bitorder.emulate import pinned_sum  # noqa: E402

print(f"bitorder from {bitorder.__file__}")


@triton.jit
def sums(x_ptr, rows_ptr, cols_ptr, all_ptr, R: tl.constexpr, C: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, R)[:, None] * C + tl.arange(0, C)[None, :])
    tl.store(rows_ptr + tl.arange(0, R), tl.sum(x, axis=1, pinned=True))
    tl.store(cols_ptr + tl.arange(0, C), x.sum(0, pinned=True))
    tl.store(all_ptr + tl.arange(0, 1), tl.sum(x, axis=None, pinned=True, keep_dims=True).reshape(1))


rng = np.random.default_rng(0)
failures = 0
for R, C in ((4, 8), (8, 32), (16, 64), (2, 128)):
    for trial in range(4):
        x = (rng.standard_normal((R, C)) * 10.0 ** rng.integers(-6, 6, (R, C))).astype(np.float32)
        t = torch.from_numpy(x)
        rows, cols, tot = torch.empty(R), torch.empty(C), torch.empty(1)
        sums[(1,)](t, rows, cols, tot, R=R, C=C)
        for got, want in ((rows.numpy(), pinned_sum(x, 1)), (cols.numpy(), pinned_sum(x, 0)),
                          (tot.numpy(), pinned_sum(x, None).reshape(1))):
            if got.tobytes() != want.astype(np.float32).tobytes():
                failures += 1
                print(f"FAIL {R}x{C} trial {trial}: {got[:4]} vs {want.reshape(-1)[:4]}")
print(f"{failures} failures")
sys.exit(1 if failures else 0)
