"""Normalizations and their backward passes, softmax backward, an online softmax."""
from __future__ import annotations

import torch
import triton
import triton.language as tl

from . import Spec, space, wide, widths

R, C = 2048, 512


@triton.jit
def _block(R, C: tl.constexpr, BR: tl.constexpr):
    r = tl.program_id(0) * BR + tl.arange(0, BR)
    return r, r[:, None] * C + tl.arange(0, C)[None, :], r[:, None] < R


@triton.jit
def layernorm_affine(x_ptr, w_ptr, b_ptr, y_ptr, mean_ptr, rstd_ptr, R, C: tl.constexpr, BR: tl.constexpr):
    r, off, ok = _block(R, C, BR)
    x = tl.load(x_ptr + off, mask=ok, other=0.0).to(tl.float32)
    mean = tl.sum(x, axis=1) / C
    d = x - mean[:, None]
    rstd = 1.0 / tl.sqrt(tl.sum(d * d, axis=1) / C + 1e-5)
    w = tl.load(w_ptr + tl.arange(0, C)).to(tl.float32)
    b = tl.load(b_ptr + tl.arange(0, C)).to(tl.float32)
    tl.store(y_ptr + off, (d * rstd[:, None] * w[None, :] + b[None, :]).to(tl.float16), mask=ok)
    tl.store(mean_ptr + r, mean, mask=r < R)
    tl.store(rstd_ptr + r, rstd, mask=r < R)


@triton.jit
def rmsnorm_affine(x_ptr, w_ptr, y_ptr, R, C: tl.constexpr, BR: tl.constexpr):
    r, off, ok = _block(R, C, BR)
    x = tl.load(x_ptr + off, mask=ok, other=0.0).to(tl.float32)
    rstd = tl.rsqrt(tl.sum(x * x, axis=1) / C + 1e-6)
    w = tl.load(w_ptr + tl.arange(0, C)).to(tl.float32)
    tl.store(y_ptr + off, (x * rstd[:, None] * w[None, :]).to(tl.bfloat16), mask=ok)


@triton.jit
def groupnorm(x_ptr, y_ptr, N, G: tl.constexpr, CG: tl.constexpr, HW: tl.constexpr):
    """One (sample, group): CG channels x HW positions normalised together."""
    base = tl.program_id(0) * CG * HW
    off = base + tl.arange(0, CG)[:, None] * HW + tl.arange(0, HW)[None, :]
    x = tl.load(x_ptr + off)
    mean = tl.sum(tl.sum(x, axis=1), axis=0) / (CG * HW)
    d = x - mean
    var = tl.sum(tl.sum(d * d, axis=1), axis=0) / (CG * HW)
    tl.store(y_ptr + off, d / tl.sqrt(var + 1e-5))


@triton.jit
def layernorm_bwd_dx(dy_ptr, x_ptr, w_ptr, mean_ptr, rstd_ptr, dx_ptr, R, C: tl.constexpr, BR: tl.constexpr):
    r, off, ok = _block(R, C, BR)
    dy = tl.load(dy_ptr + off, mask=ok, other=0.0)
    x = tl.load(x_ptr + off, mask=ok, other=0.0)
    w = tl.load(w_ptr + tl.arange(0, C))
    mean = tl.load(mean_ptr + r, mask=r < R, other=0.0)
    rstd = tl.load(rstd_ptr + r, mask=r < R, other=0.0)
    xh = (x - mean[:, None]) * rstd[:, None]
    g = dy * w[None, :]
    c1 = tl.sum(xh * g, axis=1) / C
    c2 = tl.sum(g, axis=1) / C
    tl.store(dx_ptr + off, (g - (xh * c1[:, None] + c2[:, None])) * rstd[:, None], mask=ok)


@triton.jit
def rmsnorm_bwd_dx(dy_ptr, x_ptr, w_ptr, dx_ptr, R, C: tl.constexpr, BR: tl.constexpr):
    r, off, ok = _block(R, C, BR)
    dy = tl.load(dy_ptr + off, mask=ok, other=0.0)
    x = tl.load(x_ptr + off, mask=ok, other=0.0)
    w = tl.load(w_ptr + tl.arange(0, C))
    rstd = tl.rsqrt(tl.sum(x * x, axis=1) / C + 1e-6)
    g = dy * w[None, :]
    c = tl.sum(g * x, axis=1) / C * rstd * rstd
    tl.store(dx_ptr + off, (g - x * c[:, None]) * rstd[:, None], mask=ok)


@triton.jit
def softmax_bwd(dy_ptr, y_ptr, dx_ptr, R, C: tl.constexpr, BR: tl.constexpr):
    r, off, ok = _block(R, C, BR)
    dy = tl.load(dy_ptr + off, mask=ok, other=0.0)
    y = tl.load(y_ptr + off, mask=ok, other=0.0)
    tl.store(dx_ptr + off, y * (dy - tl.sum(dy * y, axis=1)[:, None]), mask=ok)


@triton.jit
def online_softmax(x_ptr, y_ptr, C, BC: tl.constexpr):
    """One row over a runtime width, BC at a time: running max and sum, then a second pass."""
    row = tl.program_id(0)
    m = tl.full((BC,), -float("inf"), tl.float32)
    s = tl.zeros((BC,), tl.float32)
    for c0 in range(0, C, BC):
        c = c0 + tl.arange(0, BC)
        x = tl.load(x_ptr + row * C + c, mask=c < C, other=-float("inf"))
        m_new = tl.maximum(m, x)
        s = s * tl.exp(m - m_new) + tl.exp(x - m_new)
        s = tl.where(m_new == -float("inf"), 0.0, s)
        m = m_new
    mr = tl.max(m, axis=0)
    total = tl.sum(s * tl.exp(m - mr), axis=0)
    for c0 in range(0, C, BC):
        c = c0 + tl.arange(0, BC)
        x = tl.load(x_ptr + row * C + c, mask=c < C, other=-float("inf"))
        tl.store(y_ptr + row * C + c, tl.exp(x - mr) / total, mask=c < C)


@triton.jit
def cross_entropy_bwd(x_ptr, t_ptr, dx_ptr, R, C: tl.constexpr, BR: tl.constexpr):
    r, off, ok = _block(R, C, BR)
    x = tl.load(x_ptr + off, mask=ok, other=0.0)
    t = tl.load(t_ptr + r, mask=r < R, other=0)
    e = tl.exp(x - tl.max(x, axis=1)[:, None])
    p = e / tl.sum(e, axis=1)[:, None]
    tl.store(dx_ptr + off, p - tl.where(tl.arange(0, C)[None, :] == t[:, None], 1.0, 0.0), mask=ok)


def _rowwise(kernel, name, ins, outs, blocks=(1, 2, 4, 8), cols=C):
    """ins: {name: shape or 'row' (R,) or 'col' (cols,) or 'targets' or (shape, dtype)}; outs likewise."""
    def tensor(spec, device, seed, empty):
        kind, dtype = (spec if isinstance(spec, tuple) and isinstance(spec[1], torch.dtype) else (spec, None))
        shape = {"mat": (R, cols), "row": (R,), "col": (cols,)}.get(kind, kind)
        dtype = dtype or torch.float32
        if shape == "targets":
            g = torch.Generator(device=device).manual_seed(seed)
            return torch.randint(0, cols, (R,), device=device, dtype=torch.int32, generator=g)
        if empty:
            return torch.empty(shape, device=device, dtype=dtype)
        # a row's statistics (a mean, an rstd) are positive and moderate; by kind, not shape (2048 columns = R)
        return wide(shape, seed, device, dtype) if kind != "row" else wide(shape, seed, device).abs().add(0.5)

    def make(device, seed):
        a = {n: tensor(s, device, seed + i, False) for i, (n, s) in enumerate(ins.items())}
        a.update({n: tensor(s, device, 0, True) for n, s in outs.items()})
        return {**a, "R": R, "C": cols}
    return Spec(name, kernel, make, tuple(outs), lambda m: (triton.cdiv(m["R"], m["BR"]),), space({"BR": blocks}),
                family="normalization")


def _groupnorm():
    def make(device, seed):
        return {"x_ptr": wide((8, 32, 256), seed, device), "y_ptr": torch.empty((8, 32, 256), device=device),
                "N": 8, "G": 8, "CG": 4, "HW": 256}
    return Spec("groupnorm", groupnorm, make, ("y_ptr",), lambda m: (m["N"] * m["G"],),
                space({}), family="normalization")   # no block to tune: 16 configurations


def _online_softmax():
    def make(device, seed):
        return {"x_ptr": wide((512, 3000), seed, device), "y_ptr": torch.empty((512, 3000), device=device),
                "C": 3000}
    return Spec("online_softmax", online_softmax, make, ("y_ptr",), lambda m: (512,), space({"BC": (256, 1024)}),
                family="normalization")


F16, BF16 = torch.float16, torch.bfloat16


SPECS = [
    *widths(lambda w, c, b: _rowwise(layernorm_affine, "layernorm_affine" + w, {
        "x_ptr": ("mat", F16), "w_ptr": ("col", F16), "b_ptr": ("col", F16)},
        {"y_ptr": ("mat", F16), "mean_ptr": "row", "rstd_ptr": "row"}, b, c)),
    *widths(lambda w, c, b: _rowwise(rmsnorm_affine, "rmsnorm_affine" + w, {"x_ptr": ("mat", BF16), "w_ptr": ("col", BF16)},
                                      {"y_ptr": ("mat", BF16)}, b, c)),
    _groupnorm(),
    *widths(lambda w, c, b: _rowwise(layernorm_bwd_dx, "layernorm_bwd_dx" + w, {
        "dy_ptr": "mat", "x_ptr": "mat", "w_ptr": "col", "mean_ptr": "row", "rstd_ptr": "row"}, {"dx_ptr": "mat"}, b, c)),
    *widths(lambda w, c, b: _rowwise(rmsnorm_bwd_dx, "rmsnorm_bwd_dx" + w, {"dy_ptr": "mat", "x_ptr": "mat", "w_ptr": "col"},
                                      {"dx_ptr": "mat"}, b, c)),
    *widths(lambda w, c, b: _rowwise(softmax_bwd, "softmax_bwd" + w, {"dy_ptr": "mat", "y_ptr": "mat"}, {"dx_ptr": "mat"},
                                      b, c)),
    _online_softmax(),
    *widths(lambda w, c, b: _rowwise(cross_entropy_bwd, "cross_entropy_bwd" + w, {"x_ptr": "mat", "t_ptr": "targets"},
                                      {"dx_ptr": "mat"}, b, c)),
]
