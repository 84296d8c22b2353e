"""The sm_90 tensor-core step, bit for bit (h200-facts.md, verified on the H200).

One MMA step folds L products and the incoming fp32 accumulator c:
  1. every product a_i*b_i is exact; its exponent is ea+eb (a subnormal input uses
     its format's minimum exponent); a zero term gets exponent E_ZERO;
  2. Emax is the largest exponent among the L products and c;
  3. every term, c included, is truncated toward zero to F fraction bits below 2^Emax;
  4. the terms are summed exactly and rounded once toward zero, to fp32 (F=25,
     fp16/bf16) or to 13 fraction bits (F=13, fp8). Exact zero gives +0.0,
     |result| >= 2^128 gives inf, NaN / inf*0 / inf-inf give 0x7FFFFFFF.

Values travel as float64, which holds every product and every truncated sum of
these formats exactly; fp32 results are float32 arrays.
"""
from __future__ import annotations

import numpy as np

E_ZERO = -133
CANONICAL_NAN = np.uint32(0x7FFFFFFF).view(np.float32)
# per operand format: (F, result fraction bits or None for fp32, minimum normal exponent)
STEP = {"fp16": (25, None, -14), "bf16": (25, None, -126), "e4m3": (13, 13, -6), "e5m2": (13, 13, -14)}
_TWO128 = 2.0 ** 128


def exponents(x64: np.ndarray, emin: int) -> np.ndarray:
    """The model's exponent of each value: floor(log2|x|), emin for subnormals, E_ZERO for 0."""
    with np.errstate(divide="ignore", invalid="ignore"):
        _, e = np.frexp(x64)
    e = e.astype(np.int64) - 1
    e = np.where(e < emin, emin, e)
    return np.where(x64 == 0, E_ZERO, e)


def round_toward_zero_f32(s: np.ndarray) -> np.ndarray:
    """float64 -> float32, rounding toward zero (|s| >= 2^128 -> inf, as the hardware does)."""
    with np.errstate(over="ignore", invalid="ignore"):
        f = s.astype(np.float32)
        over = np.abs(f.astype(np.float64)) > np.abs(s)
        f = np.where(over, np.nextafter(f, np.float32(0)), f)
        return np.where(np.abs(s) >= _TWO128, np.copysign(np.float32(np.inf), s).astype(np.float32), f)


def truncate_fraction(s: np.ndarray, bits: int) -> np.ndarray:
    """Keep `bits` fraction bits of each value, toward zero (fp8 accumulators keep 13)."""
    m, e = np.frexp(s)  # s = m * 2^e, 0.5 <= |m| < 1
    return np.ldexp(np.trunc(np.ldexp(m, bits + 1)), e - bits - 1)


def mma_step(a: np.ndarray, b: np.ndarray, c: np.ndarray, fmt: str) -> np.ndarray:
    """One tensor-core step for every output element.

    a: (R, L) and b: (L, C) operand values (float64 holding `fmt` values, zeros
    for padded lanes); c: (R, C) float32 accumulator. Returns (R, C) float32.
    """
    F, frac_bits, emin = STEP[fmt]
    a = np.asarray(a, np.float64)
    b = np.asarray(b, np.float64)
    c64 = np.asarray(c, np.float32).astype(np.float64)
    ea = exponents(a, emin)                       # (R, L)
    eb = exponents(b, emin)                       # (L, C)
    with np.errstate(invalid="ignore"):           # inf * 0 is NaN, as on the hardware
        p = a[:, :, None] * b[None, :, :]         # (R, L, C), exact
    ep = ea[:, :, None] + eb[None, :, :]
    ep = np.where(p == 0, E_ZERO, ep)             # a zero product is a zero term
    ec = exponents(c64, -126)
    emax = np.maximum(ep.max(axis=1), ec)         # (R, C)
    shift = (F - emax)[:, None, :]
    with np.errstate(invalid="ignore", over="ignore"):
        terms = np.trunc(np.ldexp(p, shift)).sum(axis=1) + np.trunc(np.ldexp(c64, F - emax))
        s = np.ldexp(terms, -(F - emax))
    if frac_bits is not None:
        s = truncate_fraction(s, frac_bits)
    out = round_toward_zero_f32(s)
    # specials: the plain float64 sum carries NaN and inf as IEEE says; NaN is canonical.
    special = ~np.isfinite(p).all(axis=1) | ~np.isfinite(c64)
    if special.any():
        with np.errstate(invalid="ignore"):
            raw = p.sum(axis=1) + c64
        out = np.where(special, np.where(np.isnan(raw), CANONICAL_NAN, raw.astype(np.float32)), out)
    return np.where(out == 0, np.float32(0), out).astype(np.float32)  # exact zero is +0.0


def chain(a: np.ndarray, b: np.ndarray, groups, fmt: str, c0=None) -> np.ndarray:
    """Chain MMA steps over K: `groups` lists (start, stop) per step, in order.

    a: (R, K), b: (K, C). A group shorter than L is a step with zero lanes, which
    the model makes identical to a step over fewer products. c0 seeds the chain.
    """
    R, C = a.shape[0], b.shape[1]
    acc = np.zeros((R, C), np.float32) if c0 is None else np.asarray(c0, np.float32)
    for start, stop in groups:
        acc = mma_step(a[:, start:stop], b[start:stop, :], acc, fmt)
    return acc
