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

Split-K answers (the profile's fp8 split entry): part8_kernel runs each part's chain
(chain8_tile over the part's K range, promotion intervals counted from the part's start) into
an fp32 workspace, unscaled; merge8_kernel sums the parts in order in fp32, then scales, adds
the bias and rounds once (its docstring: the order; bitorder.emulate replays the same).
"""
import triton
import triton.language as tl

from .kernels import operand_strides, swizzled_tile, tile_of


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
def _whole_tile(a_base, b_base, kk, sak, sbk, m_ok, n_ok):
    """A's and B's tiles at K indices kk, all inside K (no mask along K: Triton vectorises and
    pipelines the loads), zero past M and N."""
    return (tl.load(a_base + kk[None, :] * sak, mask=m_ok, other=0.0),
            tl.load(b_base + kk[:, None] * sbk, mask=n_ok, other=0.0))


@triton.jit
def chain8_tile(a_ptr, b_ptr, pid_m, pid_n, M, N, k_lo, k_hi, stride_a, stride_b,
                A_ROW: tl.constexpr, B_ROW: tl.constexpr, PROMOTE: tl.constexpr,
                BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, TMA: tl.constexpr,
                PAIRS: tl.constexpr = False):
    """The fp32 accumulator of output tile (pid_m, pid_n): one chain over K indices [k_lo, k_hi),
    from zero, in K order, tiles of BLOCK_K from k_lo (so promotion intervals, BLOCK_K = PROMOTE,
    count from k_lo), the last tile zero past k_hi. TMA (A row-major, B column-major, 16-byte-aligned
    bases and leading strides): the descriptors end at k_hi, so their zero fill is the same mask.
    PAIRS (promoting chains on TMA tiles only; an experiment, BITORDER_FP8_PAIRS; pointer tiles run as
    without it, since they spill here: fp8._pairs): whole intervals two at a time,
    the odd one's add deferred to the next trip: a trip issues the even interval's fresh chain and waits
    for it (which also ends the previous trip's odd chain), adds that odd partial, issues the odd
    interval's chain and adds the even partial while the odd chain's wgmmas run: the same adds in the
    same order (the first trip adds a +0 that stands for no interval; +0 + +0 is +0). Triton 3.6 leaves
    the odd dot async (its result only crosses the loop and is read after the even dot's wait 0:
    dotCanBeProperlyAsync's rule 3b); reading the previous odd partial before the odd dot lets it reuse
    those registers (read after it, ptxas serializes the wgmmas: C7514). A plain chain waits before every
    add; 2026-12-02b's form (both chains issued, then both added) still waited for both."""
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
    if TMA:   # zeros past M, N and k_hi come from the descriptors' bounds
        a_desc = tl.make_tensor_descriptor(a_ptr, [M, k_hi], [stride_a, 1], [BLOCK_M, BLOCK_K])
        b_desc = tl.make_tensor_descriptor(b_ptr, [N, k_hi], [stride_b, 1], [BLOCK_N, BLOCK_K])
        k_pairs = k_lo
        if PAIRS and PROMOTE > 0:
            k_pairs = k_lo + (k_hi - k_lo) // (2 * BLOCK_K) * (2 * BLOCK_K)
            x_odd = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
            for k0 in range(k_lo, k_pairs, 2 * BLOCK_K):
                x_even = tl.dot(a_desc.load([pid_m * BLOCK_M, k0]), b_desc.load([pid_n * BLOCK_N, k0]).T)
                acc = acc + x_odd
                x_odd = tl.dot(a_desc.load([pid_m * BLOCK_M, k0 + BLOCK_K]), b_desc.load([pid_n * BLOCK_N, k0 + BLOCK_K]).T)
                acc = acc + x_even
            acc = acc + x_odd
        for k0 in range(k_pairs, k_hi, BLOCK_K):
            acc = _dot8(a_desc.load([pid_m * BLOCK_M, k0]), b_desc.load([pid_n * BLOCK_N, k0]).T, acc, PROMOTE)
    else:
        # Whole tiles first, with no mask along K (Triton then vectorises and pipelines the
        # loads), then the short tile, zero past k_hi: the same dots on the same values in order.
        k_full = k_lo + (k_hi - k_lo) // BLOCK_K * BLOCK_K
        for k0 in range(k_lo, k_full, BLOCK_K):
            a, b = _whole_tile(a_base, b_base, k0 + rk, sak, sbk, m_ok, n_ok)
            acc = _dot8(a, b, acc, PROMOTE)
        if k_full < k_hi:
            kk = k_full + rk
            a = tl.load(a_base + kk[None, :] * sak, mask=m_ok & (kk[None, :] < k_hi), other=0.0)
            b = tl.load(b_base + kk[:, None] * sbk, mask=(kk[:, None] < k_hi) & n_ok, other=0.0)
            acc = _dot8(a, b, acc, PROMOTE)
    return acc


@triton.jit
def chain8_kernel(a_ptr, b_ptr, out_ptr, bias_ptr, sa_ptr, sb_ptr, M, N, K, stride_a, stride_b, stride_om,
                  A_ROW: tl.constexpr, B_ROW: tl.constexpr, PROMOTE: tl.constexpr, SCALE: tl.constexpr,
                  ROWWISE: tl.constexpr, HAS_BIAS: tl.constexpr,
                  BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, TMA: tl.constexpr = False,
                  PAIRS: tl.constexpr = False):
    """out = epilogue(the K chain of a @ b); grid = (cdiv(M, BLOCK_M) * cdiv(N, BLOCK_N),).
    SCALE 0 applies no scale (the interpreter tests: it has no inline asm). TMA (A row-major, B
    column-major, 16-byte-aligned bases and leading strides): the tiles come by TMA, zero past
    M, N and K as the masks give: the same dots on the same values in the same order."""
    pid_m, pid_n = swizzled_tile(M, N, BLOCK_M, BLOCK_N)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    m_ok = rm[:, None] < M
    n_ok = rn[None, :] < N
    acc = chain8_tile(a_ptr, b_ptr, pid_m, pid_n, M, N, 0, K, stride_a, stride_b, A_ROW, B_ROW, PROMOTE,
                      BLOCK_M, BLOCK_N, BLOCK_K, TMA, PAIRS)
    _epilogue8(acc, rm, rn, m_ok, n_ok, out_ptr, bias_ptr, sa_ptr, sb_ptr, M, N, stride_om, SCALE, ROWWISE, HAS_BIAS)


@triton.jit
def chain8_persistent_kernel(a_ptr, b_ptr, out_ptr, bias_ptr, sa_ptr, sb_ptr, M, N, K, stride_a, stride_b, stride_om,
                             PROMOTE: tl.constexpr, SCALE: tl.constexpr, ROWWISE: tl.constexpr,
                             HAS_BIAS: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                             BLOCK_K: tl.constexpr, PROGRAMS: tl.constexpr):
    """chain8_kernel on TMA tiles (A row-major, B column-major, 16-byte-aligned) with PROGRAMS programs that each
    walk tiles pid, pid + PROGRAMS, ...: every tile is still one program's whole K chain in K order, with the same
    promotion intervals, adds and epilogue (so the same bits); the loop nest is flattened so that the next tile's
    loads overlap this one's epilogue (as chain_tma_persistent_kernel does for fp16). No warp specialization: on
    the H200 it changed this chain's bytes (h200-facts 2026-12-02, 2026-12-03c). grid = (PROGRAMS,)."""
    a_desc = tl.make_tensor_descriptor(a_ptr, [M, K], [stride_a, 1], [BLOCK_M, BLOCK_K])
    b_desc = tl.make_tensor_descriptor(b_ptr, [N, K], [stride_b, 1], [BLOCK_N, BLOCK_K])
    tiles = tl.cdiv(M, BLOCK_M) * tl.cdiv(N, BLOCK_N)
    for tile in tl.range(tl.program_id(0), tiles, PROGRAMS, flatten=True):
        pid_m, pid_n = tile_of(tile, M, N, BLOCK_M, BLOCK_N)
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        for k0 in range(0, K, BLOCK_K):
            acc = _dot8(a_desc.load([pid_m * BLOCK_M, k0]), b_desc.load([pid_n * BLOCK_N, k0]).T, acc, PROMOTE)
        rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
        rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
        _epilogue8(acc, rm, rn, rm[:, None] < M, rn[None, :] < N, out_ptr, bias_ptr, sa_ptr, sb_ptr, M, N, stride_om,
                   SCALE, ROWWISE, HAS_BIAS)


@triton.jit
def _epilogue8(acc, rm, rn, m_ok, n_ok, out_ptr, bias_ptr, sa_ptr, sb_ptr, M, N, stride_om, SCALE: tl.constexpr,
               ROWWISE: tl.constexpr, HAS_BIAS: tl.constexpr):
    """out[rm, rn] = the tile's accumulator times the scales (SCALE's order), plus the bias in fp32, rounded once
    (the module's docstring), stored where it lies inside M x N (m_ok, n_ok: rm, rn inside M, N). chain8_kernel
    computes rm, rn and their masks before its chain, so its PTX is the one the fp8 gate ran (computed here, they
    reorder its address arithmetic)."""
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


# -- split-K (cuBLASLt algo 66 with split_k > 1): per-part chains, then one fp8 merge ----------

@triton.jit
def part8_kernel(a_ptr, b_ptr, ws_ptr, M, N, K, SPAN, stride_a, stride_b, stride_wm, stride_wp,
                 A_ROW: tl.constexpr, B_ROW: tl.constexpr, PROMOTE: tl.constexpr,
                 BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, TMA: tl.constexpr = False,
                 PAIRS: tl.constexpr = False):
    """ws[part] = the unscaled fp32 chain over K indices [part * SPAN, min((part + 1) * SPAN, K)),
    started from zero at the part's start (promotion intervals count from there: BLOCK_K = PROMOTE),
    stored unrounded. grid = (cdiv(M, BLOCK_M) * cdiv(N, BLOCK_N), parts); merge8_kernel finishes."""
    part = tl.program_id(1)
    pid_m, pid_n = swizzled_tile(M, N, BLOCK_M, BLOCK_N)
    k_lo = part * SPAN
    k_hi = tl.minimum(k_lo + SPAN, K)
    acc = chain8_tile(a_ptr, b_ptr, pid_m, pid_n, M, N, k_lo, k_hi, stride_a, stride_b, A_ROW, B_ROW, PROMOTE,
                      BLOCK_M, BLOCK_N, BLOCK_K, TMA, PAIRS)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    w = ws_ptr + part.to(tl.int64) * stride_wp + rm[:, None].to(tl.int64) * stride_wm + rn[None, :]
    tl.store(w, acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit(do_not_specialize=["n_elem", "PARTS", "stride_part", "N"])
def merge8_kernel(part_ptr, out_ptr, bias_ptr, sa_ptr, sb_ptr, n_elem, PARTS, stride_part, N,
                  HAS_BIAS: tl.constexpr, BLOCK: tl.constexpr):
    """out = round(((p0 + p1) + p2 ... ) * fp32(scale_a * scale_b) (+ bias)), over flat elements:
    the fp32 partials (contiguous per part) summed in part order in fp32, the tensor-wise scale
    product rounded to fp32 first and applied once to the merged sum, the bias (the output type,
    exact in fp32) added in fp32, one rounding to out's type. Every step is its own round-to-
    nearest fp32 operation, so the launcher compiles it with enable_fp_fusion=False: the scale and
    the bias must not fuse into one fma (that is cuBLAS's scale_bias_fma order, not this one), and
    the same source then runs unchanged under Triton's interpreter (which has no inline asm)."""
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elem
    p = part_ptr + offs
    acc = tl.load(p, mask=mask, other=0.0)
    for i in range(1, PARTS):
        p += stride_part        # a pointer step: part * stride_part could pass int32
        acc = acc + tl.load(p, mask=mask, other=0.0)
    acc = acc * (tl.load(sa_ptr) * tl.load(sb_ptr))
    if HAS_BIAS:
        acc = acc + tl.load(bias_ptr + offs % N, mask=mask, other=0.0).to(tl.float32)
    tl.store(out_ptr + offs, acc.to(out_ptr.dtype.element_ty), mask=mask)
