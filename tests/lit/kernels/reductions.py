"""Kernels the lit tests compile: the report's own row sum (one copy of the source)."""
from bitorder.compiler.demo import row_sum  # noqa: F401

import triton  # noqa: E402
import triton.language as tl  # noqa: E402

import bitorder  # noqa: E402,F401  (installs pinned=)


@triton.jit
def pinned_row_sum(x_ptr, y_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * n_cols + offs, mask=offs < n_cols, other=0.0)
    tl.store(y_ptr + row, tl.sum(x, axis=0, pinned=True))
