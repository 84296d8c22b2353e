"""Launching the chain and merge kernels for a GEMMDesc (GPU side).

`run(a, b, desc, bias)` returns the bytes `desc` prescribes for a @ b (+ bias):
a plain chain writes the output directly; a split writes one partial per part
into a workspace and the merge kernel sums them in K order.
"""
from __future__ import annotations

import torch
import triton

from ..desc import GEMMDesc
from .kernels import chain_kernel, merge_kernel

_TORCH = {"fp32": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16}


def _blocks(m: int, n: int):
    # Speed knobs only (the chain is the same for any of them).
    if m <= 16:
        return 16, 128, 64, 4
    if m <= 64:
        return 64, 128, 64, 4
    return 128, 128, 64, 8


def _as3d(x):
    return x if x.dim() == 3 else x.unsqueeze(0)


def chain(a, b, out, *, span: int, group: int = 16, tail_first: bool = False, k_step: int = 16, bias=None,
          parts: int = 1, blocks=None):
    """Launch chain_kernel: out[part] = the chain over part `part` of K, rounded to out's type."""
    a3, b3 = _as3d(a), _as3d(b)
    batch, M, K = a3.shape
    N = b3.shape[-1]
    o = out.view(parts, batch, M, N)  # out is contiguous: the output, or the workspace of partials
    BM, BN, BK, warps = blocks or _blocks(M, N)
    grid = (triton.cdiv(M, BM) * triton.cdiv(N, BN), batch, parts)
    chain_kernel[grid](
        a3, b3, o, bias if bias is not None else a3, M, N, K, span, k_step,
        a3.stride(0) if batch > 1 else 0, a3.stride(1), a3.stride(2),
        b3.stride(0) if b3.shape[0] > 1 else 0, b3.stride(1), b3.stride(2),
        o.stride(1), o.stride(2), o.stride(3), o.stride(0),
        GROUP=group, TAIL_FIRST=tail_first, HAS_BIAS=bias is not None,
        BLOCK_M=BM, BLOCK_N=BN, BLOCK_K=BK, num_warps=warps, num_stages=3)
    return out


def run(a, b, desc: GEMMDesc, bias=None, out_dtype=None):
    """a @ b (+ bias) with the bits `desc` prescribes (families plain and split_k, sequential merge)."""
    out_dtype = out_dtype or a.dtype
    shape = (*torch.broadcast_shapes(a.shape[:-2], b.shape[:-2]), a.shape[-2], b.shape[-1])
    out = torch.empty(shape, dtype=out_dtype, device=a.device)
    group = desc.instruction_k if desc.instruction_k < 16 else 16
    tail = dict(tail_first=desc.k_tail == "first", k_step=desc.k_step or 16)
    bias_in_chain = bias if "bias_acc" in desc.epilogue and desc.family == "plain" else None
    if desc.family == "plain":
        return chain(a, b, out, span=desc.k, group=group, bias=bias_in_chain, **tail)
    if desc.family == "split_k" and desc.merge_order == "sequential" and len(desc.k_cuts) == 1:
        parts = desc.parts
        ws = torch.empty((parts, *shape), dtype=_TORCH[desc.partial_dtype], device=a.device)
        chain(a, b, ws, span=desc.k_cuts[0], group=group, parts=parts, **tail)
        n = out.numel()
        BLOCK = 1024
        merge_kernel[(triton.cdiv(n, BLOCK),)](
            ws, out, bias if bias is not None else ws, n, parts, n, MERGE_FP32=desc.merge_dtype == "fp32",
            HAS_BIAS=bias is not None, N=shape[-1], BLOCK=BLOCK)
        return out
    raise NotImplementedError(f"no Triton kernel for {desc}")
