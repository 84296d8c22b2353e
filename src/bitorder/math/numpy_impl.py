"""Shared float32 exp and log, the numpy half: the same steps as the Triton half, op for op.

One algorithm written twice (seeds/note-same-bits-cpu-gpu.txt): Cody-Waite range reduction
and cephes polynomials, every product that feeds an add an explicit fma, so no compiler can
contract differently on the two sides. numpy has no fma: `fma32` computes it exactly
(the product is exact in float64; the sum is rounded to odd in float64, then to nearest in
float32, which is the correctly rounded fma).
"""
from __future__ import annotations

import numpy as np

F32 = np.float32
# Constants, as float32 bit patterns so both halves read the same values.
LOG2E = F32(1.44269504088896341)
LN2_HI = F32(0.693359375)          # 0x3F318000: few bits, so n * LN2_HI is exact
LN2_LO = F32(-2.12194440e-4)
MAGIC = F32(12582912.0)           # 1.5 * 2^23: adding it rounds to an integer
EXP_HI = F32(88.72283935546875)    # above: +inf
EXP_LO = F32(-103.97208404541016)  # below: +0
EXP_P = [F32(c) for c in (1.9875691500e-4, 1.3981999507e-3, 8.3334519073e-3, 4.1665795894e-2,
                          1.6666665459e-1, 5.0000001201e-1)]
SQRTHF = F32(0.707106781186547524)
LOG_P = [F32(c) for c in (7.0376836292e-2, -1.1514610310e-1, 1.1676998740e-1, -1.2420140846e-1,
                          1.4249322787e-1, -1.6668057665e-1, 2.0000714765e-1, -2.4999993993e-1,
                          3.3333331174e-1)]


def fma32(a, b, c):
    """Correctly rounded float32 fma(a, b, c), elementwise."""
    a, b, c = (np.asarray(v, F32).astype(np.float64) for v in (a, b, c))
    p = a * b                                  # exact: 24 + 24 bits
    with np.errstate(invalid="ignore", over="ignore"):
        s = p + c
        bb = s - p                             # TwoSum: the exact error of s
        err = (p - (s - bb)) + (c - bb)
        odd = s.view(np.int64) & 1
        fix = (err != 0) & (odd == 0) & np.isfinite(s)
        s = np.where(fix, np.nextafter(s, np.where(err > 0, np.inf, -np.inf)), s)  # round to odd
        return s.astype(F32)


def _pow2(n):
    """2^n as float32 for integer n in [-126, 127] (exact)."""
    return ((np.asarray(n, np.int32) + 127) << 23).astype(np.int32).view(F32)


def exp(x):
    """Shared float32 exp: bit-identical to bitorder.math.tl_exp on the GPU; at most 1 ulp
    from the correctly rounded exp on the tested ranges (tests/math)."""
    x = np.asarray(x, F32)
    with np.errstate(all="ignore"):
        xc = np.clip(x, EXP_LO, EXP_HI)
        n = fma32(xc, LOG2E, MAGIC) - MAGIC                # round(x / ln 2), ties to even
        r = fma32(-n, LN2_HI, xc)
        r = fma32(-n, LN2_LO, r)
        p = EXP_P[0]
        for c in EXP_P[1:]:
            p = fma32(p, r, c)
        r2 = (r * r).astype(F32)
        y = fma32(p, r2, r)
        y = (y + F32(1.0)).astype(F32)
        ni = n.astype(np.int32)
        # scale by 2^n in two steps, the first exact: 2^(n-k) then 2^k, with k = 64 when 2^n alone
        # would be subnormal (one rounding, at the end) and k = 1 when it would overflow
        k = np.where(ni < -125, -64, np.where(ni > 126, 1, 0)).astype(np.int32)
        y = ((y * _pow2(ni - k)).astype(F32) * _pow2(k)).astype(F32)
        y = np.where(x > EXP_HI, F32(np.inf), y)
        y = np.where(x < EXP_LO, F32(0.0), y)
        return np.where(np.isnan(x), x, y).astype(F32)


def log(x):
    """Shared float32 natural log: bit-identical to bitorder.math.tl_log on the GPU; at most
    1 ulp from the correctly rounded log on the tested ranges (tests/math)."""
    x = np.asarray(x, F32)
    with np.errstate(all="ignore"):
        sub = (x > 0) & (x < F32(1.17549435e-38))
        xs = np.where(sub, x * F32(8388608.0), x).astype(F32)          # 2^23: subnormals made normal
        bits = xs.view(np.int32)
        e = ((bits >> 23) & 0xFF) - 126
        m = ((bits & 0x007FFFFF) | 0x3F000000).view(F32)                  # in [0.5, 1)
        e = np.where(sub, e - 23, e)
        small = m < SQRTHF
        e = np.where(small, e - 1, e)
        f = np.where(small, (m + m).astype(F32) - F32(1.0), m - F32(1.0)).astype(F32)
        ef = e.astype(F32)
        z = (f * f).astype(F32)
        y = LOG_P[0]
        for c in LOG_P[1:]:
            y = fma32(y, f, c)
        y = (y * f).astype(F32)
        y = (y * z).astype(F32)
        y = fma32(ef, LN2_LO, y)
        y = fma32(F32(-0.5), z, y)
        y = (f + y).astype(F32)
        y = fma32(ef, LN2_HI, y)
        y = np.where(x == 0, F32(-np.inf), y)
        y = np.where(x < 0, F32(np.nan), y)
        y = np.where(np.isinf(x) & (x > 0), F32(np.inf), y)
        return np.where(np.isnan(x), x, y).astype(F32)
