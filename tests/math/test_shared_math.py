"""Shared exp/log: accuracy against mpmath, specials, fma32's exactness, and the Triton half
compiling to fma.rn with no approximate instruction (no GPU needed)."""
import os
import re
import subprocess
import sys
from fractions import Fraction

import numpy as np
import pytest
import triton
import triton.language as tl
from hypothesis import given, settings, strategies as st

import bitorder
from bitorder.math import exp, fma32, log, tl_exp, tl_log

HERE = os.path.dirname(__file__)


def test_within_one_ulp_of_mpmath_on_100k_seeded_inputs():
    p = subprocess.run([sys.executable, os.path.join(HERE, "accuracy.py"), "100000"], capture_output=True, text=True,
                       timeout=900)
    assert p.returncode == 0, p.stdout + p.stderr


def test_planted_fault_dropping_the_low_part_of_ln2_fails(tmp_path):
    sys.path.insert(0, os.path.dirname(HERE))
    from mutants import run_on_mutant
    p, copy = run_on_mutant(tmp_path, "src/bitorder/math/numpy_impl.py", "        r = fma32(-n, LN2_LO, r)\n",
                            "        r = r\n", ["tests/math/accuracy.py", "20000"])
    assert f"bitorder from {copy}" in p.stdout and p.returncode != 0, p.stdout[-2000:] + p.stderr[-1000:]


def test_specials():
    f32 = np.float32
    e = exp(np.array([0, -0.0, np.inf, -np.inf, np.nan, 89, -104, 88.72, -88.0], f32))
    assert e[0] == 1 and e[1] == 1 and e[2] == np.inf and e[3] == 0 and np.isnan(e[4]) and e[5] == np.inf
    assert e[6] == 0 and np.isfinite(e[7]) and 0 < e[8] < 1.2e-38   # the subnormal end rounds once
    lg = log(np.array([1, 0, -0.0, -1, np.inf, np.nan, 1e-45, 2], f32))
    assert lg[0] == 0 and lg[1] == -np.inf and lg[2] == -np.inf and np.isnan(lg[3]) and lg[4] == np.inf
    assert np.isnan(lg[5]) and np.isclose(lg[6], -103.27893) and np.isclose(lg[7], 0.6931472)


def _rn32(fr):
    f = np.float32(float(fr))
    cands = [f, np.nextafter(f, np.float32(np.inf)), np.nextafter(f, np.float32(-np.inf))]
    return min(cands, key=lambda c: (abs(Fraction(float(c)) - fr), int(np.float32(c).view(np.int32)) & 1))


floats = st.floats(width=32, allow_nan=False, allow_infinity=False, min_value=-2.0 ** 100, max_value=2.0 ** 100)


@settings(max_examples=400, deadline=None)
@given(floats, floats, floats)
def test_fma32_is_the_correctly_rounded_fma(a, b, c):
    a, b, c = np.float32(a), np.float32(b), np.float32(c)
    exact = Fraction(float(a)) * Fraction(float(b)) + Fraction(float(c))
    if abs(exact) > Fraction(3.4e38):
        return
    got = fma32(a, b, c)
    if exact == 0:  # IEEE: -0 only when the product and c are both -0 (or both negative zeros' sum)
        prod_neg = bool(np.signbit(a) ^ np.signbit(b))
        both_zero = (a == 0 or b == 0) and c == 0
        assert got == 0 and bool(np.signbit(got)) == (both_zero and prod_neg and bool(np.signbit(c)))
        return
    assert got.view(np.int32) == _rn32(exact).view(np.int32)


@triton.jit
def _apply(x_ptr, y_ptr, z_ptr, n, B: tl.constexpr):
    o = tl.program_id(0) * B + tl.arange(0, B)
    x = tl.load(x_ptr + o, mask=o < n)
    tl.store(y_ptr + o, tl_exp(x), mask=o < n)
    tl.store(z_ptr + o, tl_log(x), mask=o < n)


@pytest.mark.parametrize("fusion", [True, False])
def test_triton_half_compiles_to_exact_steps(fusion):
    c = bitorder.compile(_apply, "sm90", signature=dict(x_ptr="*fp32", y_ptr="*fp32", z_ptr="*fp32", n="i32"),
                         constexprs=dict(B=1024), enable_fp_fusion=fusion)
    assert re.search(r"fma\.rn\.f32", c.ptx)
    assert not re.search(r"ex2|lg2|approx|\.ftz", c.ptx)   # no hardware approximation, no flush to zero
    amd = bitorder.compile(_apply, "gfx942", signature=dict(x_ptr="*fp32", y_ptr="*fp32", z_ptr="*fp32", n="i32"),
                           constexprs=dict(B=1024), enable_fp_fusion=fusion)
    assert not re.search(r"v_exp_f32|v_log_f32", amd.amdgcn)
