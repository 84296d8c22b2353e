"""The pinned suite's twelve kernels, their inputs and their CPU references (benchmarks/pinned_suite.py
runs them; benchmarks/corpus/pinned.py gives them to the checker).

Each kernel has a PINNED switch: tl.sum / tl.reduce pinned (bitorder's balanced tree in logical
order) or Triton's own order. The references are exact models, never a tolerance: numpy in fp32
rounding each operation as the kernel does, which the kernels make possible by using only
operations both sides round alike: fp32 adds and multiplies (no product feeds a contractible add:
the pinned kernels' SASS is the same with fp-fusion on and off), the pinned tree
(bitorder.emulate.pinned_sum), max (order-free), IEEE division and square root (tl.math.div_rn,
tl.sqrt_rn: "/" and tl.sqrt are approximate on NVIDIA), bitorder.math's shared exp and log
(tl.exp / tl.log are approximate), and for gemm_colsum an fp16 MMA chain (bitorder.emulate's
tensor-core model; an fp32 dot would be TF32). The free variants use the same math but Triton's
own sums.

CASES[name] = (kernel, inputs(seed), output shape, grid(kept block), kept block's name, its values,
CPU reference(*inputs as numpy), the sizes passed to the kernel).
"""
from __future__ import annotations

import os

import numpy as np
import torch
import triton
import triton.language as tl

import bitorder  # noqa: F401  (installs pinned=, which the kernels below use)
from bitorder.desc import GEMMDesc
from bitorder.emulate import accumulate, pinned_reduce, pinned_sum
from bitorder.math import exp as np_exp, log as np_log, tl_exp, tl_log

F32 = np.float32


@triton.jit
def row_sum(x_ptr, y_ptr, R, C: tl.constexpr, BR: tl.constexpr, PINNED: tl.constexpr):
    r = tl.program_id(0) * BR + tl.arange(0, BR)
    x = tl.load(x_ptr + r[:, None] * C + tl.arange(0, C)[None, :], mask=r[:, None] < R, other=0.0)
    tl.store(y_ptr + r, tl.sum(x, axis=1, pinned=PINNED), mask=r < R)


@triton.jit
def col_sum(x_ptr, y_ptr, R: tl.constexpr, C, BC: tl.constexpr, PINNED: tl.constexpr):
    c = tl.program_id(0) * BC + tl.arange(0, BC)
    x = tl.load(x_ptr + tl.arange(0, R)[:, None] * C + c[None, :], mask=c[None, :] < C, other=0.0)
    tl.store(y_ptr + c, tl.sum(x, axis=0, pinned=PINNED), mask=c < C)


@triton.jit
def mid_sum(x_ptr, y_ptr, A, B: tl.constexpr, C: tl.constexpr, BA: tl.constexpr, PINNED: tl.constexpr):
    a = tl.program_id(0) * BA + tl.arange(0, BA)
    i = a[:, None, None] * B * C + tl.arange(0, B)[None, :, None] * C + tl.arange(0, C)[None, None, :]
    x = tl.load(x_ptr + i, mask=a[:, None, None] < A, other=0.0)
    o = a[:, None] * C + tl.arange(0, C)[None, :]
    tl.store(y_ptr + o, tl.sum(x, axis=1, pinned=PINNED), mask=a[:, None] < A)


@triton.jit
def dot_rows(x_ptr, w_ptr, y_ptr, R, C: tl.constexpr, BR: tl.constexpr, PINNED: tl.constexpr):
    r = tl.program_id(0) * BR + tl.arange(0, BR)
    x = tl.load(x_ptr + r[:, None] * C + tl.arange(0, C)[None, :], mask=r[:, None] < R, other=0.0)
    w = tl.load(w_ptr + tl.arange(0, C))
    tl.store(y_ptr + r, tl.sum(x * w[None, :], axis=1, pinned=PINNED), mask=r < R)


@triton.jit
def _max(a, b):
    return tl.maximum(a, b)


@triton.jit
def _rows(x_ptr, R, C: tl.constexpr, BR: tl.constexpr):
    """A block of BR rows: their indices, offsets and values."""
    r = tl.program_id(0) * BR + tl.arange(0, BR)
    off = r[:, None] * C + tl.arange(0, C)[None, :]
    return r, off, tl.load(x_ptr + off, mask=r[:, None] < R, other=0.0)


@triton.jit
def _rows_and_max(x_ptr, R, C: tl.constexpr, BR: tl.constexpr, PINNED: tl.constexpr):
    """_rows and the row maxima."""
    r, off, x = _rows(x_ptr, R, C, BR)
    return r, off, x, tl.reduce(x, 1, _max, pinned=PINNED)


@triton.jit
def softmax(x_ptr, y_ptr, R, C: tl.constexpr, BR: tl.constexpr, PINNED: tl.constexpr):
    r, off, x, m = _rows_and_max(x_ptr, R, C, BR, PINNED)
    e = tl_exp(x - m[:, None])
    tl.store(y_ptr + off, tl.math.div_rn(e, tl.sum(e, axis=1, pinned=PINNED)[:, None]), mask=r[:, None] < R)


@triton.jit
def log_softmax(x_ptr, y_ptr, R, C: tl.constexpr, BR: tl.constexpr, PINNED: tl.constexpr):
    r, off, x, m = _rows_and_max(x_ptr, R, C, BR, PINNED)
    lse = tl_log(tl.sum(tl_exp(x - m[:, None]), axis=1, pinned=PINNED))
    tl.store(y_ptr + off, x - m[:, None] - lse[:, None], mask=r[:, None] < R)


@triton.jit
def layernorm(x_ptr, y_ptr, R, C: tl.constexpr, BR: tl.constexpr, PINNED: tl.constexpr):
    r, off, x = _rows(x_ptr, R, C, BR)
    mean = tl.math.div_rn(tl.sum(x, axis=1, pinned=PINNED), C * 1.0)
    d = x - mean[:, None]
    var = tl.math.div_rn(tl.sum(d * d, axis=1, pinned=PINNED), C * 1.0)
    tl.store(y_ptr + off, tl.math.div_rn(d, tl.sqrt_rn(var + 1e-5)[:, None]), mask=r[:, None] < R)


@triton.jit
def rmsnorm(x_ptr, y_ptr, R, C: tl.constexpr, BR: tl.constexpr, PINNED: tl.constexpr):
    r, off, x = _rows(x_ptr, R, C, BR)
    ms = tl.math.div_rn(tl.sum(x * x, axis=1, pinned=PINNED), C * 1.0)
    tl.store(y_ptr + off, tl.math.div_rn(x, tl.sqrt_rn(ms + 1e-6)[:, None]), mask=r[:, None] < R)


@triton.jit
def ln_bwd_dw(dy_ptr, xh_ptr, dw_ptr, R: tl.constexpr, C, BC: tl.constexpr, PINNED: tl.constexpr):
    c = tl.program_id(0) * BC + tl.arange(0, BC)
    off = tl.arange(0, R)[:, None] * C + c[None, :]
    dy = tl.load(dy_ptr + off, mask=c[None, :] < C, other=0.0)
    xh = tl.load(xh_ptr + off, mask=c[None, :] < C, other=0.0)
    tl.store(dw_ptr + c, tl.sum(dy * xh, axis=0, pinned=PINNED), mask=c < C)


@triton.jit
def cross_entropy(x_ptr, t_ptr, y_ptr, R, C: tl.constexpr, BR: tl.constexpr, PINNED: tl.constexpr):
    r = tl.program_id(0) * BR + tl.arange(0, BR)
    x = tl.load(x_ptr + r[:, None] * C + tl.arange(0, C)[None, :], mask=r[:, None] < R, other=0.0)
    t = tl.load(t_ptr + r, mask=r < R, other=0)
    m = tl.reduce(x, 1, _max, pinned=PINNED)
    lse = m + tl_log(tl.sum(tl_exp(x - m[:, None]), axis=1, pinned=PINNED))
    xt = tl.sum(tl.where(tl.arange(0, C)[None, :] == t[:, None], x, 0.0), axis=1, pinned=PINNED)
    tl.store(y_ptr + r, lse - xt, mask=r < R)


@triton.jit
def gemm_colsum(a_ptr, b_ptr, y_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr, BN: tl.constexpr,
                PINNED: tl.constexpr):
    """fp16 operands (a no-op cast for the suite's fp16 inputs; fp32 callers round to nearest here):
    an fp16 MMA chain over K in steps of 16, which bitorder.emulate models exactly (an fp32 dot
    would be TF32, which it does not)."""
    n = tl.program_id(0) * BN + tl.arange(0, BN)
    a = tl.load(a_ptr + tl.arange(0, M)[:, None] * K + tl.arange(0, K)[None, :]).to(tl.float16)
    b = tl.load(b_ptr + tl.arange(0, K)[:, None] * N + n[None, :]).to(tl.float16)
    acc = tl.dot(a, b)  # fp32 accumulator in an MMA layout
    tl.store(y_ptr + n, tl.sum(acc, axis=0, pinned=PINNED))


@triton.jit
def loop_sum(x_ptr, y_ptr, R, C, BR: tl.constexpr, BC: tl.constexpr, PINNED: tl.constexpr):
    """acc += tl.sum(chunk) over chunks of BC columns: the shape OptimizeThreadLocality rewrites
    (it would carry per-thread partials across iterations). BC is part of what the program
    computes; the kept block BR, warps, stages and alignment are not."""
    r = tl.program_id(0) * BR + tl.arange(0, BR)
    acc = tl.zeros((BR,), tl.float32)
    for c0 in range(0, C, BC):
        x = tl.load(x_ptr + r[:, None] * C + c0 + tl.arange(0, BC)[None, :], mask=r[:, None] < R, other=0.0)
        acc += tl.sum(x, axis=1, pinned=PINNED)
    tl.store(y_ptr + r, acc, mask=r < R)


def loop_sum_reference(x, bc=256):
    """The CPU's bits for loop_sum: pinned sums of each chunk, added in chunk order in fp32."""
    acc = np.zeros(x.shape[0], np.float32)
    for c0 in range(0, x.shape[1], bc):
        acc = (acc + pinned_sum(x[:, c0:c0 + bc], 1).astype(np.float32)).astype(np.float32)
    return acc


# CPU references for the kernels built on exp, log, division and square roots: numpy in fp32,
# each operation rounded once as the kernel rounds it (shared exp / log, div_rn, sqrt_rn; max
# is order-free, so any tree gives its bits; pinned_reduce keeps the kernel's anyway).
def _shifted(x):
    """x minus its row maximum, in fp32."""
    x = x.astype(F32)
    return (x - pinned_reduce(x, 1, np.maximum)[:, None]).astype(F32)


def softmax_reference(x):
    """softmax's bits: shared exp of x - max, the pinned sum, one IEEE division."""
    e = np_exp(_shifted(x))
    return (e / pinned_sum(e, 1)[:, None]).astype(F32)


def log_softmax_reference(x):
    """log_softmax's bits: (x - max) - log(pinned sum of exp(x - max)), shared exp and log."""
    xm = _shifted(x)
    return (xm - np_log(pinned_sum(np_exp(xm), 1))[:, None]).astype(F32)


def layernorm_reference(x, eps=1e-5):
    """layernorm's bits (no affine): pinned sums, IEEE divisions, d / sqrt_rn(var + eps)."""
    x, c = x.astype(F32), F32(x.shape[1])
    mean = (pinned_sum(x, 1) / c).astype(F32)
    d = (x - mean[:, None]).astype(F32)
    var = (pinned_sum((d * d).astype(F32), 1) / c).astype(F32)
    return (d / np.sqrt((var + F32(eps)).astype(F32))[:, None]).astype(F32)


def rmsnorm_reference(x, eps=1e-6):
    """rmsnorm's bits (no weight): x / sqrt_rn(pinned_sum(x * x) / C + eps)."""
    x = x.astype(F32)
    ms = (pinned_sum((x * x).astype(F32), 1) / F32(x.shape[1])).astype(F32)
    return (x / np.sqrt((ms + F32(eps)).astype(F32))[:, None]).astype(F32)


def cross_entropy_reference(x, t):
    """cross_entropy's bits: max + log(pinned sum of exp(x - max)), minus the pinned sum of the
    row with every column but t zeroed (how the kernel takes x[t])."""
    x = x.astype(F32)
    lse = (pinned_reduce(x, 1, np.maximum) + np_log(pinned_sum(np_exp(_shifted(x)), 1))).astype(F32)
    xt = pinned_sum(np.where(np.arange(x.shape[1])[None, :] == t[:, None], x, F32(0)), 1)
    return (lse - xt).astype(F32)


def gemm_colsum_reference(a, b):
    """gemm_colsum's bits: the fp32 accumulator of an fp16 MMA chain over K in steps of 16 from
    zero (bitorder.emulate.accumulate of a plain descriptor, before any output rounding; Triton's
    wgmma k16 at 4 and 8 warps and mma.sync m16n8k16 at 1 and 2 round alike, docs/h200-facts.md),
    then the pinned column sum."""
    a, b = np.asarray(a, np.float16), np.asarray(b, np.float16)
    acc = accumulate(a.astype(np.float64), b.astype(np.float64), GEMMDesc("plain", "fp16", a.shape[1], "wgmma", 16))
    return pinned_sum(acc, 0)


# where the inputs live: the GPU, or the CPU for Triton's interpreter (tests/language's smoke run)
DEVICE = os.environ.get("PINNED_DEVICE", "cuda")


def wide(shape, seed):
    g = torch.Generator(device=DEVICE).manual_seed(seed)
    x = torch.randn(shape, device=DEVICE, generator=g)
    return x * torch.exp2(torch.randint(-8, 9, shape, device=DEVICE, generator=g).float())


def narrow(shape, seed):
    """Standard normal values: every exp term of a row's log-sum-exp counts (with wide() one term
    dominates and the free orders gave one byte pattern over 72 cross-entropy configurations, 2026-11-30e)."""
    g = torch.Generator(device=DEVICE).manual_seed(seed)
    return torch.randn(shape, device=DEVICE, generator=g)


def targets(n, classes, seed):
    """n class indices in [0, classes), int32, seeded: every process draws the same ones."""
    g = torch.Generator(device=DEVICE).manual_seed(seed)
    return torch.randint(0, classes, (n,), device=DEVICE, dtype=torch.int32, generator=g)


def unaligned(x):
    """The same values one element past a 16-byte boundary (Triton then specialises differently)."""
    buf = torch.empty(x.numel() + 1, device=x.device, dtype=x.dtype)
    v = buf[1:].view(x.shape)
    v.copy_(x)
    return v


R, C = 4096, 1024       # the row kernels' check sizes
RT, CT = 32768, 131072  # timing sizes (below)
_r = lambda z: (z["R"], z["C"])  # noqa: E731  (a row kernel's input shape)
# Each case once: name: (kernel, inputs(seed, sizes), output shape(sizes), the size the grid runs
# over, the kept block's name, its values, CPU reference, the check's sizes, the timing's sizes).
# Timing sizes: at the check sizes every kernel's do_bench minimum sat on the launch floor (5-14
# us; 2026-11-30g), so the suite times at larger sizes. Only runtime arguments grow, each a
# multiple of 16 (Triton specialises integers on that), so the timed binaries are the checked ones;
# except gemm_colsum's N, a constexpr (its wgmma operand addresses are constants the checker
# reads): its timed binaries are built for N = 65536, and their pinned outputs' agreement over the
# whole space is checked at that size (timing_pinned_invariant).
_TABLE = {
    "row_sum": (row_sum, lambda s, z: [wide(_r(z), s)], lambda z: (z["R"],), "R", "BR", (1, 2, 4, 8),
                lambda x: pinned_sum(x, 1), dict(R=R, C=C), dict(R=RT, C=C)),
    "col_sum": (col_sum, lambda s, z: [wide(_r(z), s)], lambda z: (z["C"],), "C", "BC", (16, 32, 64, 128),
                lambda x: pinned_sum(x, 0), dict(R=256, C=8192), dict(R=256, C=CT)),
    "mid_sum": (mid_sum, lambda s, z: [wide((z["A"], z["B"], z["C"]), s)], lambda z: (z["A"], z["C"]), "A", "BA",
                (1, 2, 4), lambda x: pinned_sum(x, 1), dict(A=512, B=128, C=16), dict(A=8192, B=128, C=16)),
    "dot_rows": (dot_rows, lambda s, z: [wide(_r(z), s), wide((z["C"],), s + 9)], lambda z: (z["R"],), "R", "BR",
                 (1, 2, 4, 8), lambda x, w: pinned_sum(x * w[None, :], 1), dict(R=R, C=C), dict(R=RT, C=C)),
    "softmax": (softmax, lambda s, z: [wide(_r(z), s)], _r, "R", "BR", (1, 2, 4), softmax_reference,
                dict(R=R, C=C), dict(R=RT, C=C)),
    "log_softmax": (log_softmax, lambda s, z: [wide(_r(z), s)], _r, "R", "BR", (1, 2, 4), log_softmax_reference,
                    dict(R=R, C=C), dict(R=RT, C=C)),
    "layernorm": (layernorm, lambda s, z: [wide(_r(z), s)], _r, "R", "BR", (1, 2, 4), layernorm_reference,
                  dict(R=R, C=C), dict(R=RT, C=C)),
    "rmsnorm": (rmsnorm, lambda s, z: [wide(_r(z), s)], _r, "R", "BR", (1, 2, 4), rmsnorm_reference,
                dict(R=R, C=C), dict(R=RT, C=C)),
    "ln_bwd_dw": (ln_bwd_dw, lambda s, z: [wide(_r(z), s), wide(_r(z), s + 5)], lambda z: (z["C"],), "C", "BC",
                  (16, 32, 64), lambda dy, xh: pinned_sum(dy * xh, 0), dict(R=256, C=4096), dict(R=256, C=65536)),
    "cross_entropy": (cross_entropy, lambda s, z: [narrow(_r(z), s), targets(z["R"], z["C"], s + 1)],
                      lambda z: (z["R"],), "R", "BR", (1, 2, 4), cross_entropy_reference, dict(R=R, C=C),
                      dict(R=RT, C=C)),
    "gemm_colsum": (gemm_colsum, lambda s, z: [wide((z["M"], z["K"]), s).half(), wide((z["K"], z["N"]), s + 3).half()],
                    lambda z: (z["N"],), "N", "BN", (32, 64, 128), gemm_colsum_reference, dict(M=128, N=1024, K=64),
                    dict(M=128, N=65536, K=64)),
    "loop_sum": (loop_sum, lambda s, z: [wide(_r(z), s)], lambda z: (z["R"],), "R", "BR", (1, 2, 4, 8),
                 loop_sum_reference, dict(R=R, C=8192, BC=256), dict(R=8192, C=8192, BC=256)),
}
TIMING_RECOMPILED = ("gemm_colsum",)


def _at(name, sizes):
    """(inputs(seed), output shape, grid(kept block)) of case `name` at `sizes`."""
    _, inputs, out_shape, over = _TABLE[name][:4]
    return (lambda s: inputs(s, sizes)), out_shape(sizes), (lambda b: (triton.cdiv(sizes[over], b),))


# name: (kernel, inputs(seed), output shape, grid from the kept block, kept block name, its values,
# CPU reference, the sizes passed to the kernel): what the suite checks
CASES = {n: (t[0], *_at(n, t[7]), t[4], t[5], t[6], t[7]) for n, t in _TABLE.items()}
# name: (inputs(seed), output shape, grid(kept block), sizes): what it times
TIMING = {n: (*_at(n, t[8]), t[8]) for n, t in _TABLE.items()}


_POINTER_TYPES = {"t_ptr": "*i32", "a_ptr": "*fp16", "b_ptr": "*fp16"}  # the rest are fp32


def signature(name):
    """(kernel, Triton signature, constexprs but the kept block and PINNED, the block's name) of a
    suite kernel for compiling without a GPU: pointers fp32 (the cross-entropy targets i32,
    gemm_colsum's operands fp16), sizes that are runtime arguments i32."""
    kernel, _, _, _, block_name, _, _, shapes = CASES[name]
    args = kernel.arg_names
    sig = {a: _POINTER_TYPES.get(a, "*fp32") for a in args if a.endswith("_ptr")}
    consts = dict(shapes)
    for a in args:
        if a in shapes and not kernel.params[args.index(a)].is_constexpr:
            sig[a] = "i32"
            consts.pop(a)
    return kernel, sig, consts, block_name
