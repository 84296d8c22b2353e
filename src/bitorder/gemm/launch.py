"""Launching the chain and merge kernels for a GEMMDesc (GPU side).

`run(a, b, desc, bias)` returns the bytes `desc` prescribes for a @ b (+ bias): a
plain chain writes the output directly; a split writes one partial per part into a
workspace and merge_kernel sums them in K order. a is (M, K) or (B, M, K), b is
(K, N) or (B, K, N), any strides; the output is a fresh contiguous tensor.
"""
from __future__ import annotations

import torch
import triton

from ..desc import GEMMDesc
from .kernels import chain_kernel, chain_kernel_any_ld, merge_kernel

_TORCH = {"fp32": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16}
MERGE_BLOCK = 1024


def blocks(m: int, n: int):
    """(BLOCK_M, BLOCK_N, BLOCK_K, num_warps, num_stages): speed knobs only, the chain is the same for any."""
    if m <= 64:
        return 64, 128, 64, 4, 3
    return 128, 128, 64, 8, 3


def _as3d(x):
    return x if x.dim() == 3 else x.unsqueeze(0)


def _major(x):
    """(row_major, the other stride) of a 2-D or batched operand; a copy if it is neither."""
    s0, s1 = x.stride(-2), x.stride(-1)
    if s1 == 1 and (x.shape[-2] == 1 or s0 >= x.shape[-1]):
        return x, True, max(s0, 1)
    if s0 == 1 and (x.shape[-1] == 1 or s1 >= x.shape[-2]):
        return x, False, max(s1, 1)
    x = x.contiguous()  # the same values: the bits do not change
    return x, True, x.stride(-2)


def chain(a, b, out, *, span: int, group: int = 16, tail_first: bool = False, k_step: int = 16, bias=None,
          parts: int = 1, block=None):
    """Launch chain_kernel: out[part] = the chain over part `part` of K, in out's type."""
    a3, b3 = _as3d(a), _as3d(b)
    batch, M, K = a3.shape
    N = b3.shape[-1]
    a3, a_row, sa = _major(a3)
    b3, b_row, sb = _major(b3)
    o = out.view(parts, batch, M, N)  # out is contiguous: the output, or the workspace of partials
    BM, BN, BK, warps, *stages = block or blocks(M, N)
    grid = (triton.cdiv(M, BM) * triton.cdiv(N, BN), batch, parts)
    kernel = chain_kernel if (sa % 16 == 0 and sb % 16 == 0 and N % 16 == 0) else chain_kernel_any_ld
    kernel[grid](
        a3, b3, o, bias if bias is not None else a3, M, N, K, span, k_step,
        a3.stride(0) if a3.shape[0] > 1 else 0, sa, b3.stride(0) if b3.shape[0] > 1 else 0, sb,
        o.stride(1), o.stride(2), o.stride(0),
        A_ROW=a_row, B_ROW=b_row, GROUP=group, TAIL_FIRST=tail_first, HAS_BIAS=bias is not None,
        BLOCK_M=BM, BLOCK_N=BN, BLOCK_K=BK, num_warps=warps, num_stages=stages[0] if stages else 3)
    return out


def out_shape(a, b):
    return (*torch.broadcast_shapes(a.shape[:-2], b.shape[:-2]), a.shape[-2], b.shape[-1])


def run(a, b, desc: GEMMDesc, bias=None, out_dtype=None, block=None):
    """a @ b (+ bias) with exactly the bits `desc` prescribes (families plain and split_k)."""
    out_dtype = out_dtype or a.dtype
    shape = out_shape(a, b)
    out = torch.empty(shape, dtype=out_dtype, device=a.device)
    if desc.instruction_k not in (8, 16) or desc.promotion is not None:
        raise NotImplementedError(f"no Triton kernel for {desc}")
    tail = dict(group=desc.instruction_k, tail_first=desc.k_tail == "first", k_step=desc.k_step or 16, block=block)
    has_bias = bias is not None
    if desc.family == "plain":
        return chain(a, b, out, span=desc.k, bias=bias if "bias_acc" in desc.epilogue else None, **tail)
    if desc.family != "split_k" or len(desc.k_cuts) != 1 or desc.merge_dtype != "fp32" or desc.k_parts is not None:
        raise NotImplementedError(f"no Triton kernel for {desc}")
    serial = desc.merge_order == "serial_added"
    if not serial and desc.merge_order != "sequential":
        raise NotImplementedError(f"no Triton kernel for {desc}")
    # Serial parts keep their fp32 accumulators; the merge rounds after every add.
    ws_dtype = torch.float32 if serial else _TORCH[desc.partial_dtype]
    parts = desc.parts
    ws = torch.empty((parts, *shape), dtype=ws_dtype, device=a.device)
    chain(a, b, ws, span=desc.k_cuts[0], parts=parts, **tail)
    if not has_bias:
        mode = 0
    elif "bias_out" in desc.epilogue:
        mode = 3
    else:
        mode = 2 if serial else 1
    n = out.numel()
    merge_kernel[(triton.cdiv(n, MERGE_BLOCK),)](
        ws, out, bias if has_bias else ws, n, parts, n, shape[-1],
        ROUND_EACH=serial, BIAS_MODE=mode, BLOCK=MERGE_BLOCK)
    return out
