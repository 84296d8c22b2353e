"""The fp8 (e4m3 / e5m2) chain kernel: torch._scaled_mm's families on sm_90.

One fp32 accumulator per output element walks K in wgmma k32 steps, in K order. With
PROMOTE = 0 the walk is one pure tensor-core chain (cuBLAS's use_fast_accum=True); with
PROMOTE = P a fresh chain starts from zero every P elements of K (from k = 0) and is added
into the accumulator with a round-to-nearest fp32 add (use_fast_accum=False; P = 128 on
the H200): one fresh `tl.dot(a, b)` per tile of BLOCK_K = P, added in (_dot8).

The epilogue multiplies by the scales (SCALE 1: by scale_a * scale_b, that product rounded
first; 2: by scale_a, then by scale_b; 3: by scale_b, then scale_a; 4: fma(acc, scale_a *
scale_b, bias), the bias inside the one rounding), adds the bias in fp32 (HAS_BIAS), rounds once to the
output type. Scales are tensor-wise (one fp32 each) or row-wise (ROWWISE: scale_a per row
of A, scale_b per column of B). Every multiply and add is explicitly rounded (no fma).
"""
import triton
import triton.language as tl

from .kernels import swizzled_tile, operand_strides


@triton.jit
def _mul_rn(x, y):
    return tl.inline_asm_elementwise("mul.rn.f32 $0, $1, $2;", "=r,r,r", [x, y], dtype=tl.float32,
                                     is_pure=True, pack=1)


@triton.jit
def _add_rn(x, y):
    return tl.inline_asm_elementwise("add.rn.f32 $0, $1, $2;", "=r,r,r", [x, y], dtype=tl.float32,
                                     is_pure=True, pack=1)


@triton.jit
def _dot8(a, b, acc, PROMOTE: tl.constexpr):
    """One tile's wgmma k32 steps into acc: a pure chain (PROMOTE 0), or a fresh chain from
    zero over the tile (BLOCK_K = PROMOTE) added into acc with one round-to-nearest fp32 add.
    (Triton's max_num_imprecise_acc computes the same, but adds the partial before waiting for
    the wgmmas, and ptxas then serializes them: C7514 / C7517, compiler/ptxas.py.) The sign of
    a zero partial cannot show: acc starts at +0 and +0 + -0 is +0."""
    if PROMOTE == 0:
        return tl.dot(a, b, acc)
    else:
        return acc + tl.dot(a, b)


@triton.jit
def chain8_kernel(a_ptr, b_ptr, out_ptr, bias_ptr, sa_ptr, sb_ptr, M, N, K, stride_a, stride_b, stride_om,
                  A_ROW: tl.constexpr, B_ROW: tl.constexpr, PROMOTE: tl.constexpr, SCALE: tl.constexpr,
                  ROWWISE: tl.constexpr, HAS_BIAS: tl.constexpr,
                  BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, TMA: tl.constexpr = False):
    """out = epilogue(the K chain of a @ b); grid = (cdiv(M, BLOCK_M) * cdiv(N, BLOCK_N),).
    SCALE 0 applies no scale (the interpreter tests: it has no inline asm). TMA (A row-major, B
    column-major, 16-byte-aligned bases and leading strides): the tiles come by TMA, zero past
    M, N and K as the masks give: the same dots on the same values in the same order."""
    pid_m, pid_n = swizzled_tile(M, N, BLOCK_M, BLOCK_N)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    sam, sak = operand_strides(stride_a, A_ROW)
    sbk, sbn = operand_strides(stride_b, B_ROW)
    a_base = a_ptr + rm[:, None].to(tl.int64) * sam
    b_base = b_ptr + rn[None, :].to(tl.int64) * sbn
    m_ok = rm[:, None] < M
    n_ok = rn[None, :] < N
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    if TMA:   # zeros past M, N and K come from the descriptors' bounds
        a_desc = tl.make_tensor_descriptor(a_ptr, [M, K], [stride_a, 1], [BLOCK_M, BLOCK_K])
        b_desc = tl.make_tensor_descriptor(b_ptr, [N, K], [stride_b, 1], [BLOCK_N, BLOCK_K])
        for k0 in range(0, K, BLOCK_K):
            acc = _dot8(a_desc.load([pid_m * BLOCK_M, k0]), b_desc.load([pid_n * BLOCK_N, k0]).T, acc, PROMOTE)
    else:
        # Whole tiles first, with no mask along K (Triton then vectorises and pipelines the
        # loads), then the short tile, zero past K: the same dots on the same values in order.
        k_full = K // BLOCK_K * BLOCK_K
        for k0 in range(0, k_full, BLOCK_K):
            kk = k0 + rk
            a = tl.load(a_base + kk[None, :] * sak, mask=m_ok, other=0.0)
            b = tl.load(b_base + kk[:, None] * sbk, mask=n_ok, other=0.0)
            acc = _dot8(a, b, acc, PROMOTE)
        if k_full < K:
            kk = k_full + rk
            a = tl.load(a_base + kk[None, :] * sak, mask=m_ok & (kk[None, :] < K), other=0.0)
            b = tl.load(b_base + kk[:, None] * sbk, mask=(kk[:, None] < K) & n_ok, other=0.0)
            acc = _dot8(a, b, acc, PROMOTE)
    if ROWWISE:
        sa = tl.load(sa_ptr + rm, mask=rm < M, other=1.0)[:, None]
        sb = tl.load(sb_ptr + rn, mask=rn < N, other=1.0)[None, :]
    else:
        sa = tl.load(sa_ptr)
        sb = tl.load(sb_ptr)
    if SCALE == 1:
        acc = _mul_rn(acc, _mul_rn(sa, sb))
    elif SCALE == 2:
        acc = _mul_rn(_mul_rn(acc, sa), sb)
    elif SCALE == 3:
        acc = _mul_rn(_mul_rn(acc, sb), sa)
    if SCALE == 4:   # fma(acc, scale_a * scale_b, bias): the bias inside one rounding
        bias = tl.load(bias_ptr + rn, mask=rn < N, other=0.0).to(tl.float32)
        acc = tl.fma(acc, _mul_rn(sa, sb), bias[None, :])
    elif HAS_BIAS:
        bias = tl.load(bias_ptr + rn, mask=rn < N, other=0.0).to(tl.float32)
        acc = _add_rn(acc, bias[None, :])
    o = out_ptr + rm[:, None].to(tl.int64) * stride_om + rn[None, :]
    tl.store(o, acc.to(out_ptr.dtype.element_ty), mask=m_ok & n_ok)
