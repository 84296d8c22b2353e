"""The elementwise and reduction stages of a transformer block, each twice: a Triton kernel for
the H200 and a numpy twin with the same bits (issue 7's end-to-end check, benchmarks/block_e2e.py).

The bits agree because every operation is one the two sides round alike: fp32 adds and
multiplies rounded to nearest one at a time (the kernels are launched with fp-fusion off, so
no multiply is contracted into an add), IEEE division and square root (div_rn, sqrt_rn; "/" on
NVIDIA is approximate), the pinned reductions (bitorder.emulate.pinned_sum is their tree),
max (order-free), and bitorder.math's shared exp. Tensors are fp16 between stages.
"""
from __future__ import annotations

import numpy as np
import triton
import triton.language as tl

import bitorder  # noqa: F401  (pinned reductions)
from bitorder.emulate import pinned_reduce, pinned_sum
from bitorder.math import exp as np_exp, tl_exp

EPS = 1e-6
F32, F16 = np.float32, np.float16


# -- rmsnorm -----------------------------------------------------------------------------------
@triton.jit
def rmsnorm_kernel(x_ptr, w_ptr, y_ptr, eps, D: tl.constexpr):
    row = tl.program_id(0)
    x = tl.load(x_ptr + row * D + tl.arange(0, D)).to(tl.float32)
    ms = tl.math.div_rn(tl.sum(x * x, axis=0, pinned=True), D * 1.0)
    r = tl.math.div_rn(1.0, tl.sqrt_rn(ms + eps))
    w = tl.load(w_ptr + tl.arange(0, D)).to(tl.float32)
    tl.store(y_ptr + row * D + tl.arange(0, D), (x * r * w).to(tl.float16))


def rmsnorm_twin(x, w, eps=EPS):
    x = x.astype(F32)
    ms = (pinned_sum(x * x, 1) / F32(x.shape[1])).astype(F32)
    r = (F32(1) / np.sqrt((ms + F32(eps)).astype(F32))).astype(F32)
    return ((x * r[:, None]).astype(F32) * w.astype(F32)).astype(F16)


# -- rotary embedding (rotate-half form) over (T, H, d) ----------------------------------------
@triton.jit
def rotary_kernel(x_ptr, cos_ptr, sin_ptr, y_ptr, H: tl.constexpr, HALF: tl.constexpr):
    t = tl.program_id(0)
    h = tl.arange(0, H)[:, None]
    i = tl.arange(0, HALF)[None, :]
    base = x_ptr + t * H * 2 * HALF + h * 2 * HALF
    x1 = tl.load(base + i).to(tl.float32)
    x2 = tl.load(base + HALF + i).to(tl.float32)
    c = tl.load(cos_ptr + t * HALF + i)
    s = tl.load(sin_ptr + t * HALF + i)
    out = y_ptr + t * H * 2 * HALF + h * 2 * HALF
    tl.store(out + i, (x1 * c - x2 * s).to(tl.float16))
    tl.store(out + HALF + i, (x2 * c + x1 * s).to(tl.float16))


def rotary_twin(x, cos, sin):
    half = x.shape[-1] // 2
    x1, x2 = x[..., :half].astype(F32), x[..., half:].astype(F32)
    c, s = cos[:, None, :], sin[:, None, :]
    y1 = ((x1 * c).astype(F32) - (x2 * s).astype(F32)).astype(F32)
    y2 = ((x2 * c).astype(F32) + (x1 * s).astype(F32)).astype(F32)
    return np.concatenate([y1, y2], axis=-1).astype(F16)


def rotary_tables(T, half, base=10000.0):
    """cos and sin tables (T, half), float32, made on the host once and given to both sides."""
    inv = 1.0 / (base ** (np.arange(half, dtype=np.float64) / half))
    ang = np.arange(T, dtype=np.float64)[:, None] * inv[None, :]
    return np.cos(ang).astype(F32), np.sin(ang).astype(F32)


# -- causal softmax over score rows (H, T, T) ----------------------------------------------------
@triton.jit
def _max(a, b):
    return tl.maximum(a, b)


@triton.jit
def softmax_kernel(s_ptr, p_ptr, scale, T: tl.constexpr):
    row = tl.program_id(0)            # over H * T rows
    q = row % T
    j = tl.arange(0, T)
    s = tl.load(s_ptr + row * T + j).to(tl.float32) * scale
    s = tl.where(j <= q, s, float("-inf"))
    m = tl.reduce(s, 0, _max, pinned=True)
    e = tl_exp(s - m)
    tl.store(p_ptr + row * T + j, tl.math.div_rn(e, tl.sum(e, axis=0, pinned=True)).to(tl.float16))


def softmax_twin(scores, scale):
    H, T, _ = scores.shape
    s = (scores.astype(F32) * F32(scale)).astype(F32)
    mask = np.arange(T)[None, :] <= np.arange(T)[:, None]
    s = np.where(mask[None], s, F32(-np.inf)).astype(F32)
    m = pinned_reduce(s, 2, np.maximum)
    e = np_exp((s - m[..., None]).astype(F32))
    return (e / pinned_sum(e, 2)[..., None]).astype(F32).astype(F16)


# -- gated MLP activation: silu(gate) * up -------------------------------------------------------
@triton.jit
def silu_mul_kernel(g_ptr, u_ptr, y_ptr, n, B: tl.constexpr):
    o = tl.program_id(0) * B + tl.arange(0, B)
    g = tl.load(g_ptr + o, mask=o < n).to(tl.float32)
    u = tl.load(u_ptr + o, mask=o < n).to(tl.float32)
    silu = tl.math.div_rn(g, 1.0 + tl_exp(-g))
    tl.store(y_ptr + o, (silu * u).to(tl.float16), mask=o < n)


def silu_mul_twin(g, u):
    g = g.astype(F32)
    silu = (g / (F32(1) + np_exp(-g)).astype(F32)).astype(F32)
    return (silu * u.astype(F32)).astype(F32).astype(F16)


# -- residual add ------------------------------------------------------------------------------
@triton.jit
def add_kernel(a_ptr, b_ptr, y_ptr, n, B: tl.constexpr):
    o = tl.program_id(0) * B + tl.arange(0, B)
    a = tl.load(a_ptr + o, mask=o < n).to(tl.float32)
    b = tl.load(b_ptr + o, mask=o < n).to(tl.float32)
    tl.store(y_ptr + o, (a + b).to(tl.float16), mask=o < n)


def add_twin(a, b):
    return (a.astype(F32) + b.astype(F32)).astype(F32).astype(F16)
