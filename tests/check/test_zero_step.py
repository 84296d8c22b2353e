"""The all-zero tensor-core step, from the measured step model (bitorder.emulate.tensorcore,
bit for bit on the H200 for single instructions: /work/shared/docs/h200-facts.md).

Why it matters: BLOCK_K = 64 at K % 64 == 32 runs steps past K whose A and B elements are all
zero-filled by the copies' masks. BLOCK_K 32 and 64 twins return the same bits only if such a
step leaves every accumulator value the chain can reach unchanged. What the model says:

- fp16 (and bf16) k16 steps, F = 25: a zero product is a zero term (exponent e_zero), so Emax
  is c's exponent and c truncated to 25 fraction bits below 2^Emax is c itself (fp32 keeps 23,
  subnormals included: their exponent is clamped to -126 and 2^-149 is a multiple of
  2^(-126-25)). The sum is c, rounded toward zero to fp32: c. Infinities stay (inf + 0).
- Not the identity: -0.0 (exact zero gives +0.0) and NaNs other than 0x7FFFFFFF (canonical).
  Neither is reachable: a chain starts from +0.0 or a step's output, and a step never returns
  -0.0 (exact zero is +0.0) nor a NaN other than the canonical one. Every step past K in a
  BLOCK_K = 64 turn follows at least one real step (K > 0 whenever a turn runs), but the
  argument does not need that.
- fp8 k32 steps (F = 13): a zero step truncates c to 13 fraction bits, not the identity on
  every fp32 value; it is on the reachable ones (a step's output keeps 13), but no fp8 fold
  relies on this (the e4m3 GEMM is declined before its loop).

The fold (docs/check.md, "K loops") may use this only for fp16 steps whose A and B elements are
both masked to +0 (one zero operand is not enough: 0 * inf is NaN).
"""
import numpy as np
import pytest

from bitorder.emulate.tensorcore import CANONICAL_NAN, mma_step

_NEG_ZERO = np.uint32(0x80000000)
_CANON = np.uint32(0x7FFFFFFF)


def _patterns():
    """fp32 bit patterns: every exponent with 0, 1, 2, the largest and 200 random fractions,
    both signs (zeros, subnormals, normals, infinities and NaNs among them)."""
    rng = np.random.default_rng(0)
    frac = np.concatenate([[0, 1, 2, (1 << 23) - 1], rng.integers(0, 1 << 23, 200)]).astype(np.uint64)
    exp = np.arange(256, dtype=np.uint64) << np.uint64(23)
    pos = (exp[:, None] | frac[None, :]).ravel()
    return np.concatenate([pos, pos | np.uint64(1 << 31)]).astype(np.uint32)


def _zero_step(c_bits, fmt):
    c = c_bits.view(np.float32)[None, :]
    with np.errstate(invalid="ignore"):
        out = mma_step(np.zeros((1, 16 if fmt != "e4m3" else 32)), np.zeros((16 if fmt != "e4m3" else 32, c.shape[1])),
                       c, fmt)
    return out.view(np.uint32)[0]


@pytest.mark.parametrize("fmt", ["fp16", "bf16"])
def test_an_all_zero_k16_step_is_the_identity_on_every_reachable_accumulator(fmt):
    c = _patterns()
    out = _zero_step(c, fmt)
    nan = np.isnan(c.view(np.float32))
    changed = out != c
    # exactly two kinds of input change: -0.0 (-> +0.0) and non-canonical NaNs (-> the canonical one)
    assert set(c[changed & ~nan].tolist()) == {int(_NEG_ZERO)}
    assert out[c == _NEG_ZERO].tolist() == [0]
    assert (out[nan] == _CANON).all()
    reachable = (c != _NEG_ZERO) & (~nan | (c == _CANON))
    assert (out[reachable] == c[reachable]).all()
    assert reachable.sum() > 100_000 and (c == _CANON).any()   # the canonical NaN is among the inputs


def test_a_step_never_returns_what_a_zero_step_would_change():
    """The reachable set: a chain starts at +0.0 and a step never returns -0.0 or a NaN other
    than 0x7FFFFFFF, on draws built to cancel exactly and to overflow into NaN."""
    rng = np.random.default_rng(1)
    vals = np.array([0.0, -0.0, 1.0, -1.0, 2.0 ** -24, -(2.0 ** -24), 65504.0, -65504.0, np.inf, -np.inf, np.nan])
    for _ in range(200):
        a = rng.choice(vals, (4, 16))
        b = rng.choice(vals, (16, 4))
        a[:, :2] = [1.0, -1.0]       # x - x: an exact zero from nonzero products
        b[:2, :] = 3.0
        c = rng.choice(np.array([0.0, -0.0, 1.0, np.inf, np.nan], np.float32), (4, 4))
        with np.errstate(invalid="ignore", over="ignore"):
            out = mma_step(a, b, c, "fp16").view(np.uint32)
        assert not (out == _NEG_ZERO).any()
        nan = np.isnan(out.view(np.float32))
        assert (out[nan] == _CANON).all()
    assert np.uint32(CANONICAL_NAN.view(np.uint32)) == _CANON


def test_a_zero_step_is_not_the_identity_everywhere_planted():
    """The identity is argued on the reachable set only: -0.0 and a non-canonical NaN change,
    and an fp8 zero step truncates an fp32 value with more than 13 fraction bits."""
    c = np.array([0x80000000, 0x7FC00000, 0x3F800001], np.uint32)
    out = _zero_step(c, "fp16")
    assert out.tolist() == [0, 0x7FFFFFFF, 0x3F800001]
    assert _zero_step(np.array([0x3F800001], np.uint32), "e4m3").tolist() == [0x3F800000]
