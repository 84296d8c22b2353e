"""Launching the SIMT gemv kernel (kernels_simt.gemv_kernel) for a torch call under a GemvOrder.

bitorder.matmul plans it for gemv answers (algorithm 13) whose option has a rule in
bitorder.cublas.gemv_rule, for gemmSN's rows (gemv_rows) and F.linear's N = 1 bias, each gated on the
H200 before it became a default (docs/gemm.md); BITORDER_GEMV_RULE=0 sends gemv calls back to cuBLAS.
benchmarks/gemv_check.py calls this runner to compare it with cuBLAS.
"""
from __future__ import annotations

import os

import torch
import triton

from ..emulate.simt import GemvOrder
from .kernels_simt import FOLD_CODES, gemv_kernel, gemv_merge_kernel, gemv_parts_kernel


def supported(order: GemvOrder) -> str:
    """Why the kernel cannot run `order`, or "" when it can."""
    if order.merge != "sequential":
        return "only parts merged in K order"
    if order.product != "fma":
        return "only fma chains (mul_add would need contraction off)"
    if order.lanes > 128 or (order.lanes & (order.lanes - 1) and order.fold != "down"):
        return "lanes up to 128, a power of two unless folded \"down\" (padded with empty lanes)"
    return ""


def gemv(a: torch.Tensor, b: torch.Tensor, order: GemvOrder, bias=None, out_dtype=None, block_r: int = 16,
         unroll: int = 8, parts_apart=None):
    """a (M, K) @ b (K, N) with M == 1 or N == 1 (+ bias: (N,), added with beta = 1 as torch's
    F.linear does), or a batch of them (a (B, M, K) @ b (B, K, N), each entry on its own, the same
    bias added to every entry), computed in `order`: returns bitorder.emulate.simt.matmul's exact
    bytes for the same order, entry by entry (fp16 or bf16 operands; out_dtype defaults to a's).
    unroll: chain steps a loop trip (a speed knob: the bits do not depend on it). parts_apart: a split
    order's parts in programs of their own and a second launch adding them in K order, as cuBLAS runs
    them (None: unless BITORDER_GEMV_PARTS=0; the same bytes either way. On the H200, 2026-12-01f: 30 split
    calls 0.03x cuBLAS in one program, 0.44x apart; the gate's 1,643 gemv cases identical with it)."""
    batched = a.dim() == 3 and b.dim() == 3 and a.shape[0] == b.shape[0]
    if not (batched or (a.dim() == 2 and b.dim() == 2)) or a.shape[-1] != b.shape[-2]:
        raise ValueError(f"gemv takes a (M, K) @ b (K, N), or a batch of them; got "
                         f"{tuple(a.shape)} @ {tuple(b.shape)}")
    (M, K), N = a.shape[-2:], b.shape[-1]
    if M != 1 and N != 1:
        raise ValueError(f"gemv needs M == 1 or N == 1; got M={M}, N={N}")
    why = supported(order)
    if why:
        raise NotImplementedError(f"{order}: {why}")
    out = torch.empty((*a.shape[:-2], M, N), dtype=out_dtype or a.dtype, device=a.device)
    if N == 1:      # rows of a against the column b
        mat, (sr, sk), vec, sv, R, so = a, a.stride()[-2:], b, b.stride(-2), M, out.stride(-2)
    else:           # M == 1: columns of b against the row a
        mat, (sk, sr), vec, sv, R, so = b, b.stride()[-2:], a, a.stride(-1), N, out.stride(-1)
    batch, (sab, svb, sob) = (a.shape[0], (mat.stride(0), vec.stride(0), out.stride(0))) if batched else (1, (0, 0, 0))
    if bias is not None and bias.shape != (N,):
        raise ValueError(f"bias must have shape ({N},); got {tuple(bias.shape)}")
    sb = 0 if bias is None or N == 1 else bias.stride(0)
    span = order.span or max(K, 1)
    block_r = min(block_r, triton.next_power_of_2(R))
    parts = triton.cdiv(K, span)
    launch = {"num_warps": _gemv_warps(block_r, triton.next_power_of_2(order.lanes))}
    if parts_apart is None:
        parts_apart = os.environ.get("BITORDER_GEMV_PARTS") != "0"
    if parts_apart and parts > 1:
        ws = torch.empty((batch, parts, R), dtype=torch.float32, device=a.device)
        gemv_parts_kernel[(triton.cdiv(R, block_r), parts, batch)](
            mat, vec, ws, R, K, sr, sk, sv, span, order.chunk or 0, order.cap or 0, order.block or 0, sab, svb,
            order.lanes, LANES=triton.next_power_of_2(order.lanes), FOLD=FOLD_CODES[order.fold], BLOCK_R=block_r,
            BLOCK_IN_CHUNK=order.block_in_chunk, UNROLL=unroll, **launch)
        gemv_merge_kernel[(triton.cdiv(R, 128), batch)](
            ws, out, bias if bias is not None else out, R, parts, so, sb, sob, HAS_BIAS=bias is not None,
            BIAS_OUT=order.bias == "out", BLOCK_R=min(128, triton.next_power_of_2(R)))
        return out
    gemv_kernel[(triton.cdiv(R, block_r), batch)](
        mat, vec, out, bias if bias is not None else out, R, K, sr, sk, sv, so, sb, span, order.chunk or 0, order.cap or 0,
        order.block or 0, sab, svb, sob, order.lanes,
        LANES=triton.next_power_of_2(order.lanes), FOLD=FOLD_CODES[order.fold], HAS_BIAS=bias is not None, BIAS_OUT=order.bias == "out",
        BLOCK_R=block_r, BLOCK_IN_CHUNK=order.block_in_chunk, UNROLL=unroll, **launch)
    return out


def _gemv_warps(block_r: int, lanes: int) -> int:
    """The gemv kernels' num_warps: one warp per 32 of the program's block_r x lanes values, 1 to 4
    (16 rows x 2 lanes left 96 of 4 warps' 128 threads idle), unless BITORDER_GEMV_WARPS names a
    number (4: Triton's default, what the gates ran until 2026-12-01g). The bits do not depend on it:
    each output's chains are per element and its lane fold a chain of size-2 sums (and a sequential
    fold's other lanes -0.0), which no layout reorders. 2026-12-01g on the H200: 30 gemv calls 1.09x
    faster (geomean; 2.6x on 6612x1x31886), the gate's gemv ground (1,693 cases) identical with it."""
    how = os.environ.get("BITORDER_GEMV_WARPS", "auto")
    if how.isdigit() and int(how) in (1, 2, 4, 8):
        return int(how)
    return max(1, min(4, block_r * lanes // 32))


def gemv_rows(a: torch.Tensor, b: torch.Tensor, order: GemvOrder, bias=None, out_dtype=None, block_r: int = 16,
              unroll: int = 8):
    """a (M, K) @ b (K, N) (+ bias (N,), beta = 1) with every row of a its own gemv against b's columns
    under `order` (cuBLAS's gemmSN: path "rows"), all rows in one launch: returns the bytes of
    gemv(a[i:i + 1], b, order, bias) for every row i (fp16 or bf16 operands); unroll as gemv's."""
    if a.dim() != 2 or b.dim() != 2 or a.shape[1] != b.shape[0]:
        raise ValueError(f"gemv_rows takes a (M, K) @ b (K, N); got {tuple(a.shape)} @ {tuple(b.shape)}")
    (M, K), N = a.shape, b.shape[1]
    # a batch of M one-row gemvs: row i of a is entry i, b shared by every entry (batch stride 0)
    return gemv(a.unsqueeze(1), b.expand(M, K, N), order, bias=bias, out_dtype=out_dtype, block_r=block_r,
                unroll=unroll).view(M, N)


def gemv_rows_batched(a: torch.Tensor, b: torch.Tensor, order: GemvOrder, bias=None, out_dtype=None, by_row=None):
    """a (B, M, K) @ b (B, K, N) (+ bias (N,), beta = 1) with every row of every entry its own gemv
    against its entry's columns (batched gemmSN): returns the bytes of gemv_rows(a[z], b[z], order,
    bias) for every z. Each launch computes the same outputs in the same order whichever way the
    calls are cut: with by_row one launch per row over the batch where M < B (gemmSN's M is at most
    16, a batch can be larger: min(B, M) launches), else a launch per entry. by_row None: on unless
    BITORDER_ROWS_BATCHED=0 (2026-12-01g on the H200: the gate's batched gemmSN ground identical with
    it, 5x2x9675 batch 50 9.7x faster, 2x659x15864 batch 6 3.0x)."""
    if a.dim() != 3 or b.dim() != 3 or a.shape[0] != b.shape[0] or a.shape[2] != b.shape[1]:
        raise ValueError(f"gemv_rows_batched takes a (B, M, K) @ b (B, K, N); got {tuple(a.shape)} @ {tuple(b.shape)}")
    (B, M, _), N = a.shape, b.shape[2]
    if by_row is None:
        by_row = os.environ.get("BITORDER_ROWS_BATCHED", "1") != "0"
    out = torch.empty((B, M, N), dtype=out_dtype or a.dtype, device=a.device)
    if by_row and M < B:       # row i of every entry: a batch of B one-row gemvs
        for i in range(M):
            out[:, i:i + 1, :] = gemv(a[:, i:i + 1, :], b, order, bias=bias, out_dtype=out_dtype)
    else:
        for z in range(B):
            out[z] = gemv_rows(a[z], b[z], order, bias=bias, out_dtype=out_dtype)
    return out


def seq(a: torch.Tensor, b: torch.Tensor, bias=None, out_dtype=None):
    """a (M, K) @ b (K, N) (+ bias (N,), beta = 1 as torch's F.linear), or a batch of them (a (B, M, K)
    @ b (B, K, N), no bias), every output one fp32 chain in increasing K, the bias in fp32, one
    rounding: cuBLAS's magma_sgemmEx order (algorithm 16). Returns bitorder.emulate.simt.matmul's
    exact bytes for GemvOrder(lanes=1, fold="seq"), entry by entry (fp16 or bf16 operands, any
    strides; out_dtype defaults to a's)."""
    from .kernels_simt import seq_kernel
    batched = a.dim() == 3 and b.dim() == 3 and a.shape[0] == b.shape[0] and bias is None
    if not (batched or (a.dim() == 2 and b.dim() == 2)) or a.shape[-1] != b.shape[-2]:
        raise ValueError(f"seq takes a (M, K) @ b (K, N), or a batch of them without a bias; got "
                         f"{tuple(a.shape)} @ {tuple(b.shape)}{'' if bias is None else ' + bias'}")
    (M, K), N = a.shape[-2:], b.shape[-1]
    if bias is not None and bias.shape != (N,):
        raise ValueError(f"bias must have shape ({N},); got {tuple(bias.shape)}")
    out = torch.empty((*a.shape[:-2], M, N), dtype=out_dtype or a.dtype, device=a.device)
    batch, zs = (a.shape[0], (a.stride(0), b.stride(0), out.stride(0))) if batched else (1, (0, 0, 0))
    bm, bn = min(32, triton.next_power_of_2(M)), min(64, triton.next_power_of_2(N))
    seq_kernel[(triton.cdiv(M, bm), triton.cdiv(N, bn), batch)](
        a, b, out, bias if bias is not None else out, M, N, K, *a.stride()[-2:], *b.stride()[-2:], *out.stride()[-2:],
        *zs, HAS_BIAS=bias is not None, BLOCK_M=bm, BLOCK_N=bn, num_warps=4)
    return out


def dot(a: torch.Tensor, b: torch.Tensor, order, bias=None, out_dtype=None):
    """a (M, K) @ b (K, N) with M == 1 or N == 1 (+ bias, beta = 1 as torch's addmm: (N,) for a row
    of outputs, (1,) added to every output of a column) run as cuBLAS's dot path (algorithm 14),
    one dot per output, under a bitorder.emulate.dot.DotOrder: returns bitorder.emulate.dot.matmul's
    exact bytes for the same order, output by output (fp16 or bf16 operands; out_dtype defaults
    to a's). Two launches whatever the number of outputs."""
    from .kernels_simt import dot_partials_kernel, dot_reduce_kernel
    if a.dim() != 2 or b.dim() != 2 or a.shape[1] != b.shape[0] or (a.shape[0] != 1 and b.shape[1] != 1):
        raise ValueError(f"dot takes a (M, K) @ b (K, N) with M == 1 or N == 1; got {tuple(a.shape)} @ {tuple(b.shape)}")
    (M, K), N = a.shape, b.shape[1]
    R = max(M, N)
    if bias is not None and bias.numel() not in (1, N):
        raise ValueError(f"a dot's bias has {N} element(s) (or one for every output); got shape {tuple(bias.shape)}")
    out = torch.empty((M, N), dtype=out_dtype or a.dtype, device=a.device)
    part = torch.empty((R, order.grid), dtype=torch.float32, device=a.device)
    sar, sbr = (a.stride(0), 0) if N == 1 else (0, b.stride(1))    # where output r's vectors start
    sbias = 0 if bias is None or bias.numel() == 1 else bias.stride(0)
    dot_partials_kernel[(order.grid, R)](a, b, part, K, a.stride(1), b.stride(0), sar, sbr,
                                         SPLIT_XY=order.split_xy, VEC=order.vec, num_warps=4)
    dot_reduce_kernel[(R,)](part, out, bias if bias is not None else out, order.grid, out.stride(0) if N == 1 else out.stride(1),
                            sbias, HAS_BIAS=bias is not None, num_warps=4)
    return out
