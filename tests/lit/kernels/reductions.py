"""Kernels the lit tests compile: the report's own row sum (one copy of the source) and a column
sum over a 256-row tile (the layout pass's case)."""
import triton
import triton.language as tl

from bitorder.compiler.demo import row_sum  # noqa: F401


@triton.jit
def col_sum(x_ptr, y_ptr, C, R: tl.constexpr, BC: tl.constexpr, PINNED: tl.constexpr):
    c = tl.program_id(0) * BC + tl.arange(0, BC)
    x = tl.load(x_ptr + tl.arange(0, R)[:, None] * C + c[None, :], mask=c[None, :] < C, other=0.0)
    tl.store(y_ptr + c, tl.sum(x, axis=0, pinned=PINNED), mask=c < C)
