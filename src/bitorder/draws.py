"""Seeded input draws that the GPU and the CPU build bit for bit alike.

Every element is a function of (seed, tensor id, flat index) through a 32-bit
integer hash, evaluated with integer arithmetic only, so torch on the GPU and
numpy on the CPU produce the same bits, and the CPU can rebuild any single row
or column of a GPU operand without the rest. A draw sets sign, exponent and
fraction fields directly: `spread` binades of exponent above `low`.
"""
from __future__ import annotations

import numpy as np

M32 = 0xFFFFFFFF
# (exponent bits, fraction bits, bias) per float format
FORMATS = {"fp16": (5, 10, 15), "bf16": (8, 7, 127), "fp32": (8, 23, 127), "e4m3": (4, 3, 7), "e5m2": (5, 2, 15)}
# Two draw kinds every gate uses: a narrow one and a wide dynamic range one.
KINDS = {"narrow": (-2, 3), "wide": (-12, 16)}  # (low exponent, binades spread)


def _hash32(x, xp):
    # lowbias32 (C. Wellons); masked after each multiply so int64 wraparound cannot leak.
    x = x & M32
    x = x ^ (x >> 16)
    x = (x * 0x7FEB352D) & M32
    x = x ^ (x >> 15)
    x = (x * 0x846CA68B) & M32
    return x ^ (x >> 16)


def _bits(idx, seed, tensor_id, fmt, kind, xp):
    ebits, fbits, bias = FORMATS[fmt]
    low, spread = KINDS[kind] if isinstance(kind, str) else kind
    key = _hash32((seed * 0x9E3779B1 + tensor_id * 0x85EBCA6B) & M32, np)  # Python ints: no overflow
    h1 = _hash32(idx + key, xp)
    h2 = _hash32(h1 ^ 0x5BD1E995, xp)
    frac = h1 & ((1 << fbits) - 1)
    sign = (h1 >> 31) & 1
    exp = low + (h2 % spread) + bias
    exp = xp.clip(exp, 1, (1 << ebits) - 2) if fmt not in ("e4m3",) else xp.clip(exp, 1, 15)
    bits = (sign << (ebits + fbits)) | (exp << fbits) | frac
    if fmt == "e4m3":
        bits = xp.where((bits & 0x7F) == 0x7F, bits - 1, bits)  # 0x7F is NaN in e4m3fn
    return bits


def numpy_draw(shape, fmt: str, seed: int, tensor_id: int = 0, kind="narrow", index=None):
    """A numpy array of `fmt` (ml_dtypes for bf16/fp8) with the draw's bits.

    index: optional flat indices (any shape) into the row-major tensor of `shape`
    to build only those elements.
    """
    idx = np.arange(int(np.prod(shape)), dtype=np.int64).reshape(shape) if index is None else np.asarray(index, np.int64)
    bits = _bits(idx, seed, tensor_id, fmt, kind, np)
    return _view(bits, fmt)


def _view(bits, fmt):
    if fmt == "fp32":
        return bits.astype(np.uint32).view(np.float32)
    if fmt == "fp16":
        return bits.astype(np.uint16).view(np.float16)
    import ml_dtypes
    if fmt == "bf16":
        return bits.astype(np.uint16).view(ml_dtypes.bfloat16)
    return bits.astype(np.uint8).view({"e4m3": ml_dtypes.float8_e4m3fn, "e5m2": ml_dtypes.float8_e5m2}[fmt])


_CHUNK = 1 << 24   # elements per piece of a torch draw (each int64 temporary of a 2^28-element draw is 2 GB)


def torch_draw(shape, fmt: str, seed: int, tensor_id: int = 0, kind="narrow", device="cuda"):
    """The same bits as numpy_draw, built by torch on `device` (row-major, contiguous), in
    pieces of _CHUNK elements so that a large draw's integer temporaries stay small."""
    import torch

    n = 1
    for s in shape:
        n *= s
    width, top = {"fp32": (torch.int32, 31), "fp16": (torch.int16, 15), "bf16": (torch.int16, 15)}.get(fmt, (torch.int8, 7))
    out = torch.empty(n, dtype=width, device=device)
    for lo in range(0, n, _CHUNK):
        idx = torch.arange(lo, min(n, lo + _CHUNK), device=device, dtype=torch.int64)
        bits = _bits(idx, seed, tensor_id, fmt, kind, _TorchOps)
        out[lo:lo + idx.numel()] = (bits - ((bits >> top) << (top + 1))).to(width)   # two's complement view
    out = out.reshape(shape)
    if fmt in ("fp32", "fp16", "bf16"):
        return out.view({"fp32": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16}[fmt])
    return out.view(torch.float8_e4m3fn if fmt == "e4m3" else torch.float8_e5m2)


class _TorchOps:
    @staticmethod
    def clip(x, lo, hi):
        return x.clamp(lo, hi)

    @staticmethod
    def where(c, a, b):
        import torch
        return torch.where(c, a, b)
