"""GEMMs through tl.dot: fp16, bf16, fp8 e4m3, split-K partials, batched, a fused epilogue."""
from __future__ import annotations

import torch
import triton
import triton.language as tl

from . import Spec, space, wide

M, N, K = 512, 384, 1024


@triton.jit
def _tile_dot(a_ptr, b_ptr, M, N, K, sam, sak, sbk, sbn, pid_m, pid_n, k_lo, k_hi,
              BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    """The fp32 accumulator of one output tile over K in [k_lo, k_hi), BLOCK_K at a time."""
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    acc = tl.zeros((BLOCK_M, BLOCK_N), tl.float32)
    for k0 in range(k_lo, k_hi, BLOCK_K):
        rk = k0 + tl.arange(0, BLOCK_K)
        a = tl.load(a_ptr + rm[:, None] * sam + rk[None, :] * sak, mask=(rm[:, None] < M) & (rk[None, :] < k_hi),
                    other=0.0)
        b = tl.load(b_ptr + rk[:, None] * sbk + rn[None, :] * sbn, mask=(rk[:, None] < k_hi) & (rn[None, :] < N),
                    other=0.0)
        acc = tl.dot(a, b, acc)
    return rm, rn, acc


@triton.jit
def gemm(a_ptr, b_ptr, c_ptr, M, N, K, sam, sak, sbk, sbn, scm, scn,
         BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    rm, rn, acc = _tile_dot(a_ptr, b_ptr, M, N, K, sam, sak, sbk, sbn, tl.program_id(0), tl.program_id(1), 0, K,
                            BLOCK_M, BLOCK_N, BLOCK_K)
    tl.store(c_ptr + rm[:, None] * scm + rn[None, :] * scn, acc.to(c_ptr.dtype.element_ty),
             mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def gemm_bias_relu(a_ptr, b_ptr, bias_ptr, c_ptr, M, N, K, sam, sak, sbk, sbn, scm, scn,
                   BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    rm, rn, acc = _tile_dot(a_ptr, b_ptr, M, N, K, sam, sak, sbk, sbn, tl.program_id(0), tl.program_id(1), 0, K,
                            BLOCK_M, BLOCK_N, BLOCK_K)
    acc += tl.load(bias_ptr + rn, mask=rn < N, other=0.0).to(tl.float32)[None, :]
    tl.store(c_ptr + rm[:, None] * scm + rn[None, :] * scn, tl.maximum(acc, 0.0).to(tl.float16),
             mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def gemm_split_k(a_ptr, b_ptr, p_ptr, M, N, K, sam, sak, sbk, sbn, SPAN,
                 BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    """fp32 partials, one (M, N) slab per K span of SPAN (program_id 2)."""
    s = tl.program_id(2)
    rm, rn, acc = _tile_dot(a_ptr, b_ptr, M, N, K, sam, sak, sbk, sbn, tl.program_id(0), tl.program_id(1),
                            s * SPAN, tl.minimum(s * SPAN + SPAN, K), BLOCK_M, BLOCK_N, BLOCK_K)
    tl.store(p_ptr + s * M * N + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def bmm(a_ptr, b_ptr, c_ptr, M, N, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    z = tl.program_id(2)
    rm, rn, acc = _tile_dot(a_ptr + z * M * K, b_ptr + z * K * N, M, N, K, K, 1, N, 1, tl.program_id(0),
                            tl.program_id(1), 0, K, BLOCK_M, BLOCK_N, BLOCK_K)
    tl.store(c_ptr + z * M * N + rm[:, None] * N + rn[None, :], acc.to(tl.float16),
             mask=(rm[:, None] < M) & (rn[None, :] < N))


def _gemm(name, kernel, dtype, out_dtype=torch.float16, bias=False, split=0, batch=0, bk=(32, 64)):
    def make(device, seed):
        lim = 448.0 if dtype == torch.float8_e4m3fn else 6e4   # e4m3 has no inf: keep draws in range
        a = wide((batch or 1, M, K), seed, device).clamp(-lim, lim).to(dtype)
        b = wide((batch or 1, K, N), seed + 1, device).clamp(-lim, lim).to(dtype)
        if not batch:
            a, b = a[0], b[0]
        args = {"a_ptr": a, "b_ptr": b, "M": M, "N": N, "K": K}
        if batch:
            return {**args, "c_ptr": torch.empty((batch, M, N), device=device, dtype=torch.float16)}
        args.update(sam=K, sak=1, sbk=N, sbn=1)
        if split:
            return {**args, "p_ptr": torch.empty((split, M, N), device=device), "SPAN": K // split}
        if bias:
            args["bias_ptr"] = wide((N,), seed + 2, device).to(torch.float16)
        return {**args, "c_ptr": torch.empty((M, N), device=device, dtype=out_dtype), "scm": N, "scn": 1}

    def grid(m):
        return (triton.cdiv(m["M"], m["BLOCK_M"]), triton.cdiv(m["N"], m["BLOCK_N"]), split or batch or 1)
    out = "p_ptr" if split else "c_ptr"
    return Spec(name, kernel, make, (out,), grid,
                space({"BLOCK_M": (64, 128), "BLOCK_N": (64, 128), "BLOCK_K": bk}, warps=(4, 8), stages=(2, 3, 4)),
                family="gemm")


SPECS = [
    _gemm("gemm_fp16", gemm, torch.float16),
    _gemm("gemm_bf16", gemm, torch.bfloat16, out_dtype=torch.bfloat16),
    _gemm("gemm_fp16_out_fp32", gemm, torch.float16, out_dtype=torch.float32),
    _gemm("gemm_e4m3", gemm, torch.float8_e4m3fn, bk=(64, 128)),
    _gemm("gemm_bias_relu", gemm_bias_relu, torch.float16, bias=True),
    _gemm("gemm_split_k", gemm_split_k, torch.float16, split=4),
    _gemm("bmm_fp16", bmm, torch.float16, batch=4),
]
