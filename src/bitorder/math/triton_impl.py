"""Shared float32 exp and log, the Triton half: numpy_impl.py's steps, op for op.

Every product that feeds an add is an explicit tl.fma, and no plain product feeds an add,
so neither LLVM nor ptxas can contract differently from the numpy half: the two give the
same bits (checked on the H200 by tests/gpu/test_math_gpu.py).
"""
import triton
import triton.language as tl

from . import numpy_impl as _c

LOG2E = tl.constexpr(float(_c.LOG2E))
LN2_HI = tl.constexpr(float(_c.LN2_HI))
LN2_LO = tl.constexpr(float(_c.LN2_LO))
MAGIC = tl.constexpr(float(_c.MAGIC))
EXP_HI = tl.constexpr(float(_c.EXP_HI))
EXP_LO = tl.constexpr(float(_c.EXP_LO))
SQRTHF = tl.constexpr(float(_c.SQRTHF))
E0, E1, E2, E3, E4, E5 = (tl.constexpr(float(c)) for c in _c.EXP_P)
L0, L1, L2, L3, L4, L5, L6, L7, L8 = (tl.constexpr(float(c)) for c in _c.LOG_P)


@triton.jit
def _pow2(n):
    return ((n + 127) << 23).to(tl.float32, bitcast=True)


@triton.jit
def exp(x):
    """Shared float32 exp: bit-identical to bitorder.math.numpy_impl.exp."""
    xc = tl.minimum(tl.maximum(x, EXP_LO), EXP_HI)
    n = tl.fma(xc, LOG2E, MAGIC) - MAGIC
    r = tl.fma(-n, LN2_HI, xc)
    r = tl.fma(-n, LN2_LO, r)
    p = tl.fma(E0, r, E1)
    p = tl.fma(p, r, E2)
    p = tl.fma(p, r, E3)
    p = tl.fma(p, r, E4)
    p = tl.fma(p, r, E5)
    r2 = r * r
    y = tl.fma(p, r2, r)
    y = y + 1.0
    ni = n.to(tl.int32)
    k = tl.where(ni < -125, -64, tl.where(ni > 126, 1, 0))
    y = (y * _pow2(ni - k)) * _pow2(k)
    y = tl.where(x > EXP_HI, float("inf"), y)
    y = tl.where(x < EXP_LO, 0.0, y)
    return tl.where(x != x, x, y)


@triton.jit
def log(x):
    """Shared float32 natural log: bit-identical to bitorder.math.numpy_impl.log."""
    sub = (x > 0) & (x < 1.17549435e-38)
    xs = tl.where(sub, x * 8388608.0, x)
    bits = xs.to(tl.int32, bitcast=True)
    e = ((bits >> 23) & 0xFF) - 126
    m = ((bits & 0x007FFFFF) | 0x3F000000).to(tl.float32, bitcast=True)
    e = tl.where(sub, e - 23, e)
    small = m < SQRTHF
    e = tl.where(small, e - 1, e)
    f = tl.where(small, (m + m) - 1.0, m - 1.0)
    ef = e.to(tl.float32)
    z = f * f
    y = tl.fma(L0, f, L1)
    y = tl.fma(y, f, L2)
    y = tl.fma(y, f, L3)
    y = tl.fma(y, f, L4)
    y = tl.fma(y, f, L5)
    y = tl.fma(y, f, L6)
    y = tl.fma(y, f, L7)
    y = tl.fma(y, f, L8)
    y = y * f
    y = y * z
    y = tl.fma(ef, LN2_LO, y)
    y = tl.fma(-0.5, z, y)
    y = f + y
    y = tl.fma(ef, LN2_HI, y)
    y = tl.where(x == 0, float("-inf"), y)
    y = tl.where(x < 0, float("nan"), y)
    y = tl.where(x == float("inf"), float("inf"), y)
    return tl.where(x != x, x, y)
