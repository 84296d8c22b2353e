"""Kernels the lit tests compile: the report's own row sum (one copy of the source), a column
sum over a 256-row tile (the layout pass's load case) and a column sum of an MMA accumulator
(its convert case)."""
import triton
import triton.language as tl

from bitorder.compiler.demo import row_sum  # noqa: F401


@triton.jit
def col_sum(x_ptr, y_ptr, C, R: tl.constexpr, BC: tl.constexpr, PINNED: tl.constexpr):
    c = tl.program_id(0) * BC + tl.arange(0, BC)
    x = tl.load(x_ptr + tl.arange(0, R)[:, None] * C + c[None, :], mask=c[None, :] < C, other=0.0)
    tl.store(y_ptr + c, tl.sum(x, axis=0, pinned=PINNED), mask=c < C)


@triton.jit
def gemm_col_sum(a_ptr, b_ptr, y_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr, BN: tl.constexpr,
                 PINNED: tl.constexpr):
    n = tl.program_id(0) * BN + tl.arange(0, BN)
    a = tl.load(a_ptr + tl.arange(0, M)[:, None] * K + tl.arange(0, K)[None, :])
    b = tl.load(b_ptr + tl.arange(0, K)[:, None] * N + n[None, :])
    tl.store(y_ptr + n, tl.sum(tl.dot(a, b), axis=0, pinned=PINNED))


@triton.jit
def gemm_loop_col_sum(a_ptr, b_ptr, c_ptr, y_ptr, M: tl.constexpr, N: tl.constexpr, K, BK: tl.constexpr,
                      BN: tl.constexpr, PINNED: tl.constexpr):
    """A K loop into the accumulator, its tile stored, and its pinned column sum: the epilogue
    shape a fused GEMM has (the accumulator has a user besides the chain)."""
    n = tl.program_id(0) * BN + tl.arange(0, BN)
    acc = tl.zeros((M, BN), tl.float32)
    for k0 in range(0, K, BK):
        a = tl.load(a_ptr + tl.arange(0, M)[:, None] * K + k0 + tl.arange(0, BK)[None, :])
        b = tl.load(b_ptr + (k0 + tl.arange(0, BK))[:, None] * N + n[None, :])
        acc = tl.dot(a, b, acc)
    tl.store(c_ptr + tl.arange(0, M)[:, None] * N + n[None, :], acc)
    tl.store(y_ptr + n, tl.sum(acc, axis=0, pinned=PINNED))
