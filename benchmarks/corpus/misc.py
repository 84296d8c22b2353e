"""Attention, scans and elementwise kernels (the last are one class by construction: a control)."""
from __future__ import annotations

import torch
import triton
import triton.language as tl

from . import Spec, space, wide


@triton.jit
def attention_fwd(q_ptr, k_ptr, v_ptr, o_ptr, S, sm_scale, D: tl.constexpr, BLOCK_M: tl.constexpr,
                  BLOCK_N: tl.constexpr):
    """One head, one block of queries against all keys: online softmax over key blocks."""
    h = tl.program_id(1)
    base = h * S * D
    rm = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    rd = tl.arange(0, D)
    q = tl.load(q_ptr + base + rm[:, None] * D + rd[None, :], mask=rm[:, None] < S, other=0.0)
    m = tl.full((BLOCK_M,), -float("inf"), tl.float32)
    l = tl.zeros((BLOCK_M,), tl.float32)
    acc = tl.zeros((BLOCK_M, D), tl.float32)
    for n0 in range(0, S, BLOCK_N):
        rn = n0 + tl.arange(0, BLOCK_N)
        k = tl.load(k_ptr + base + rn[None, :] * D + rd[:, None], mask=rn[None, :] < S, other=0.0)
        s = tl.dot(q, k) * sm_scale
        s = tl.where(rn[None, :] < S, s, -float("inf"))
        m_new = tl.maximum(m, tl.max(s, axis=1))
        p = tl.exp(s - m_new[:, None])
        alpha = tl.exp(m - m_new)
        l = l * alpha + tl.sum(p, axis=1)
        v = tl.load(v_ptr + base + rn[:, None] * D + rd[None, :], mask=rn[:, None] < S, other=0.0)
        acc = acc * alpha[:, None] + tl.dot(p.to(tl.float16), v)
        m = m_new
    tl.store(o_ptr + base + rm[:, None] * D + rd[None, :], (acc / l[:, None]).to(tl.float16),
             mask=rm[:, None] < S)


@triton.jit
def cumsum_rows(x_ptr, y_ptr, R, C: tl.constexpr, BR: tl.constexpr):
    r = tl.program_id(0) * BR + tl.arange(0, BR)
    off = r[:, None] * C + tl.arange(0, C)[None, :]
    x = tl.load(x_ptr + off, mask=r[:, None] < R, other=0.0)
    tl.store(y_ptr + off, tl.cumsum(x, axis=1), mask=r[:, None] < R)


@triton.jit
def cumprod_rows(x_ptr, y_ptr, R, C: tl.constexpr, BR: tl.constexpr):
    r = tl.program_id(0) * BR + tl.arange(0, BR)
    off = r[:, None] * C + tl.arange(0, C)[None, :]
    x = tl.load(x_ptr + off, mask=r[:, None] < R, other=1.0)
    tl.store(y_ptr + off, tl.cumprod(x, axis=1), mask=r[:, None] < R)


@triton.jit
def swiglu(g_ptr, u_ptr, y_ptr, N, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    g = tl.load(g_ptr + o, mask=o < N, other=0.0).to(tl.float32)
    u = tl.load(u_ptr + o, mask=o < N, other=0.0).to(tl.float32)
    tl.store(y_ptr + o, (g * tl.sigmoid(g) * u).to(tl.float16), mask=o < N)


@triton.jit
def gelu_tanh(x_ptr, y_ptr, N, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + o, mask=o < N, other=0.0)
    inner = 0.7978845608028654 * (x + 0.044715 * x * x * x)
    t = 2.0 * tl.sigmoid(2.0 * inner) - 1.0
    tl.store(y_ptr + o, 0.5 * x * (1.0 + t), mask=o < N)


@triton.jit
def rotary(x_ptr, cos_ptr, sin_ptr, y_ptr, S, H: tl.constexpr, D: tl.constexpr, BS: tl.constexpr):
    """Rotary embedding of (S, H, D) by position: pairs (i, i + D/2) rotated."""
    s = tl.program_id(0) * BS + tl.arange(0, BS)
    h = tl.arange(0, H)
    i = tl.arange(0, D // 2)
    base = s[:, None, None] * H * D + h[None, :, None] * D + i[None, None, :]
    ok = s[:, None, None] < S
    x1 = tl.load(x_ptr + base, mask=ok, other=0.0)
    x2 = tl.load(x_ptr + base + D // 2, mask=ok, other=0.0)
    c = tl.load(cos_ptr + s[:, None, None] * (D // 2) + i[None, None, :], mask=ok, other=0.0)
    n = tl.load(sin_ptr + s[:, None, None] * (D // 2) + i[None, None, :], mask=ok, other=0.0)
    tl.store(y_ptr + base, x1 * c - x2 * n, mask=ok)
    tl.store(y_ptr + base + D // 2, x1 * n + x2 * c, mask=ok)


def _attention():
    S, H, D = 1024, 4, 64

    def make(device, seed):
        q, k, v = (wide((H, S, D), seed + i, device).clamp(-8, 8).to(torch.float16) for i in range(3))
        return {"q_ptr": q, "k_ptr": k, "v_ptr": v, "o_ptr": torch.empty((H, S, D), device=device,
                dtype=torch.float16), "S": S, "sm_scale": D ** -0.5, "D": D}
    return Spec("attention_fwd", attention_fwd, make, ("o_ptr",), lambda m: (triton.cdiv(m["S"], m["BLOCK_M"]), H),
                space({"BLOCK_M": (64, 128), "BLOCK_N": (32, 64)}, warps=(4, 8), stages=(1, 2, 3, 4)),
                family="attention")


def _scan(kernel, name, C=256):
    R = 2048

    def make(device, seed):
        x = wide((R, C), seed, device) if "sum" in name else 1 + 0.01 * torch.randn(
            (R, C), device=device, generator=torch.Generator(device=device).manual_seed(seed))
        return {"x_ptr": x, "y_ptr": torch.empty((R, C), device=device), "R": R, "C": C}
    return Spec(name, kernel, make, ("y_ptr",), lambda m: (triton.cdiv(m["R"], m["BR"]),), space({"BR": (1, 2, 4)}),
                family="scan")


def _elementwise(kernel, name, ins, dtype):
    n = 1 << 20

    def make(device, seed):
        a = {p: wide((n,), seed + i, device).clamp(-60, 60).to(dtype) for i, p in enumerate(ins)}
        return {**a, "y_ptr": torch.empty(n, device=device, dtype=torch.float16 if dtype == torch.float16
                else dtype), "N": n}
    return Spec(name, kernel, make, ("y_ptr",), lambda m: (triton.cdiv(m["N"], m["BLOCK"]),),
                space({"BLOCK": (128, 256, 512, 1024, 2048, 4096)}), family="elementwise")


def _rotary():
    S, H, D = 2048, 8, 64

    def make(device, seed):
        # seeded: a draw must be the same in every process (the gate's workers build their own; torch's
        # global generator gave each worker other tables, which read as rotary's false wrong merges)
        g = torch.Generator(device=device).manual_seed(seed + 1)
        return {"x_ptr": wide((S, H, D), seed, device), "cos_ptr": torch.rand((S, D // 2), device=device, generator=g),
                "sin_ptr": torch.rand((S, D // 2), device=device, generator=g),
                "y_ptr": torch.empty((S, H, D), device=device), "S": S, "H": H, "D": D}
    return Spec("rotary", rotary, make, ("y_ptr",), lambda m: (triton.cdiv(m["S"], m["BS"]),),
                space({"BS": (1, 2, 4)}), family="elementwise")


SPECS = [
    _attention(), *[_scan(k, n + w, c) for k, n in ((cumsum_rows, "cumsum_rows"), (cumprod_rows, "cumprod_rows"))
                    for w, c in (("", 256), ("_c64", 64), ("_c1024", 1024))],
    _elementwise(swiglu, "swiglu", ("g_ptr", "u_ptr"), torch.float16),
    _elementwise(gelu_tanh, "gelu_tanh", ("x_ptr",), torch.float32), _rotary(),
]
