"""Triton kernels, one per piece of a GEMMDesc's reduction.

`chain_kernel` is every accumulator chain cuBLAS's tensor-core families run: one
fp32 accumulator per output element walks [k_lo, k_hi) of K in instruction
groups of GROUP real products (16 for wgmma / mma.sync k16; 8 for cutlass s1688,
padded to a 16-wide dot with zero lanes, which the tensor-core model makes
identical to an 8-wide step), optionally with the short turn first (cutlass's
residue-first mainloop). BLOCK_M/N/K, warps and stages are speed knobs: the
chain's groups are the same whatever they are (paper section 3.2.2).

A program writes either the final output (rounded, bias added in fp32 first) or
its part's partial into a workspace; `merge_kernel` then sums partials in K order.
"""
import triton
import triton.language as tl


@triton.jit
def _masked_tiles(a_base, b_base, kk, ok, m_ok, n_ok, sak, sbk):
    """The A and B tiles of K indices kk, zero where ok (or the M / N bound) fails."""
    a = tl.load(a_base + kk[None, :].to(tl.int64) * sak, mask=m_ok & ok[None, :], other=0.0)
    b = tl.load(b_base + kk[:, None].to(tl.int64) * sbk, mask=ok[:, None] & n_ok, other=0.0)
    return a, b


@triton.jit
def swizzled_tile(M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    """(pid_m, pid_n) of this program's output tile: tile_of(program_id(0), ...)."""
    return tile_of(tl.program_id(0), M, N, BLOCK_M, BLOCK_N)


@triton.jit
def tile_of(pid, M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    """(pid_m, pid_n) of tile number pid. Tiles go in column bands of 8 tile rows, so
    neighbouring programs share A and B in L2; which program computes a tile is a speed knob:
    every tile's chain is the same."""
    grid_m = tl.cdiv(M, BLOCK_M)
    grid_n = tl.cdiv(N, BLOCK_N)
    SWIZZLE_M: tl.constexpr = 8
    band = SWIZZLE_M * grid_n
    first_m = (pid // band) * SWIZZLE_M
    rows = tl.minimum(grid_m - first_m, SWIZZLE_M)
    return first_m + (pid % band) % rows, (pid % band) // rows


@triton.jit
def operand_strides(stride, ROW: tl.constexpr):
    """(stride along the operand's rows, along its columns): a row-major operand (ROW) has
    `stride` between rows and unit stride along them; a column-major one the reverse."""
    if ROW:
        return stride, 1
    else:
        return 1, stride


def _chain(a_ptr, b_ptr, out_ptr, bias_ptr, M, N, K, SPAN, K_STEP,
           stride_ab, stride_a, stride_bb, stride_b, stride_ob, stride_om, stride_op,
           A_ROW: tl.constexpr, B_ROW: tl.constexpr,
           GROUP: tl.constexpr, TAIL_FIRST: tl.constexpr, HAS_BIAS: tl.constexpr,
           BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, STRIDED: tl.constexpr = False):
    """out[part, batch, m, n] = chain over K part `part` (SPAN elements each).

    STRIDED (a split_k descriptor's layout "strided", cuBLAS's algorithm 35): K is cut into tiles
    of SPAN from k = 0 (the last one short) dealt to the parts in turn: part p walks tiles p,
    p + parts, ... (parts = the grid's third axis) in increasing K, one chain from zero, the groups
    of GROUP counted from each tile's start (TAIL_FIRST must be False).

    A is row-major (A_ROW: unit stride along K, stride_a between rows) or column-
    major (unit stride along M, stride_a between columns); B likewise (B_ROW: unit
    stride along N). grid = (cdiv(M, BLOCK_M) * cdiv(N, BLOCK_N), batch, parts).
    The output's element type decides the final rounding (fp32 partials store unrounded).
    """
    batch = tl.program_id(1)
    part = tl.program_id(2)
    pid_m, pid_n = swizzled_tile(M, N, BLOCK_M, BLOCK_N)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    # Padded lane p of a dot holds real k = (p // 16) * GROUP + p % 16 when p % 16 < GROUP.
    p = tl.arange(0, BLOCK_K)
    if GROUP == 16:
        lane_k = p  # plain contiguous lanes: lets Triton vectorise and pipeline the loads
        lane_real = p < BLOCK_K
    else:
        lane_k = (p // 16) * GROUP + (p % 16)
        lane_real = (p % 16) < GROUP
    REAL_K: tl.constexpr = BLOCK_K // 16 * GROUP  # real products one tile covers
    sam, sak = operand_strides(stride_a, A_ROW)
    sbk, sbn = operand_strides(stride_b, B_ROW)
    a_base = a_ptr + batch.to(tl.int64) * stride_ab + rm[:, None].to(tl.int64) * sam
    b_base = b_ptr + batch.to(tl.int64) * stride_bb + rn[None, :].to(tl.int64) * sbn
    k_lo = part * SPAN
    k_hi = tl.minimum(k_lo + SPAN, K)
    m_ok = rm[:, None] < M
    n_ok = rn[None, :] < N
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    k_main = k_lo
    if STRIDED:
        k_hi = k_lo   # (the loops below walk nothing: the dealt tiles are walked here)
        for t0 in range(k_lo, K, SPAN * tl.num_programs(2)):
            t1 = tl.minimum(t0 + SPAN, K)
            for k0 in range(t0, t1, REAL_K):
                kk = k0 + lane_k
                a, b = _masked_tiles(a_base, b_base, kk, lane_real & (kk < t1), m_ok, n_ok, sak, sbk)
                acc = tl.dot(a, b, acc)
    if TAIL_FIRST:
        # The residue turn: (k_hi - k_lo) % K_STEP elements, grouped from k_lo.
        k_main = k_lo + (k_hi - k_lo) % K_STEP
        for k0 in range(k_lo, k_main, REAL_K):
            kk = k0 + lane_k
            a, b = _masked_tiles(a_base, b_base, kk, lane_real & (kk < k_main), m_ok, n_ok, sak, sbk)
            acc = tl.dot(a, b, acc)
    if GROUP == 16:
        # Whole tiles first, with no mask along K, so Triton can vectorise and pipeline the
        # loads; then the short tile. The groups of 16 and their order are the same.
        k_full = k_main + (k_hi - k_main) // REAL_K * REAL_K
        for k0 in range(k_main, k_full, REAL_K):
            kk = k0 + lane_k
            a = tl.load(a_base + kk[None, :] * sak, mask=m_ok, other=0.0)
            b = tl.load(b_base + kk[:, None] * sbk, mask=n_ok, other=0.0)
            acc = tl.dot(a, b, acc)
        if k_full < k_hi:
            kk = k_full + lane_k
            a, b = _masked_tiles(a_base, b_base, kk, kk < k_hi, m_ok, n_ok, sak, sbk)
            acc = tl.dot(a, b, acc)
    else:
        for k0 in range(k_main, k_hi, REAL_K):
            kk = k0 + lane_k
            a, b = _masked_tiles(a_base, b_base, kk, lane_real & (kk < k_hi), m_ok, n_ok, sak, sbk)
            acc = tl.dot(a, b, acc)
    if HAS_BIAS:
        bias = tl.load(bias_ptr + rn, mask=rn < N, other=0.0).to(tl.float32)
        acc = acc + bias[None, :]
    o = (out_ptr + part.to(tl.int64) * stride_op + batch.to(tl.int64) * stride_ob
         + rm[:, None].to(tl.int64) * stride_om + rn[None, :])
    tl.store(o, acc.to(out_ptr.dtype.element_ty), mask=(rm[:, None] < M) & (rn[None, :] < N))


_SIZES = ["K", "K_STEP"]
# Leading dimensions that are multiples of 16 let Triton vectorise the loads: one build
# specialises them; shapes with other leading dimensions share one generic build.
chain_kernel = triton.jit(_chain, do_not_specialize=_SIZES)
chain_kernel_any_ld = triton.jit(_chain, do_not_specialize=_SIZES + ["M", "N", "SPAN", "stride_ab", "stride_a", "stride_bb", "stride_b", "stride_ob", "stride_om", "stride_op"])


@triton.jit
def _tma_descs(a_base, b_base, M, N, K, stride_a, stride_b, A_ROW: tl.constexpr, B_ROW: tl.constexpr,
               BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    """Device-side TMA descriptors of A (M, K) and B (K, N), each over its unit-stride axis."""
    if A_ROW:
        a_desc = tl.make_tensor_descriptor(a_base, [M, K], [stride_a, 1], [BLOCK_M, BLOCK_K])
    else:
        a_desc = tl.make_tensor_descriptor(a_base, [K, M], [stride_a, 1], [BLOCK_K, BLOCK_M])
    if B_ROW:
        b_desc = tl.make_tensor_descriptor(b_base, [K, N], [stride_b, 1], [BLOCK_K, BLOCK_N])
    else:
        b_desc = tl.make_tensor_descriptor(b_base, [N, K], [stride_b, 1], [BLOCK_N, BLOCK_K])
    return a_desc, b_desc


@triton.jit
def _tma_chain_tile(a_desc, b_desc, m0, n0, K, A_ROW: tl.constexpr, B_ROW: tl.constexpr,
                    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    """The fp32 accumulator of the tile at (m0, n0): its whole K chain, one dot per BLOCK_K, in K
    order; tiles past M, N or K read zeros (the descriptors' bounds), as chain_kernel's masks give."""
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        if A_ROW:
            a = a_desc.load([m0, k0])
        else:
            a = a_desc.load([k0, m0]).T
        if B_ROW:
            b = b_desc.load([k0, n0])
        else:
            b = b_desc.load([n0, k0]).T
        acc = tl.dot(a, b, acc)
    return acc


@triton.jit
def _store_tile(out_ptr, bias_ptr, acc, m0, n0, M, N, stride_om, HAS_BIAS: tl.constexpr,
                BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    """out[m0:, n0:] = acc (+ bias in fp32), rounded once to out's type, within M and N."""
    rm = m0 + tl.arange(0, BLOCK_M)
    rn = n0 + tl.arange(0, BLOCK_N)
    if HAS_BIAS:
        acc = acc + tl.load(bias_ptr + rn, mask=rn < N, other=0.0).to(tl.float32)[None, :]
    o = out_ptr + rm[:, None].to(tl.int64) * stride_om + rn[None, :]
    tl.store(o, acc.to(out_ptr.dtype.element_ty), mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit(do_not_specialize=["K"])
def chain_tma_kernel(a_ptr, b_ptr, out_ptr, bias_ptr, M, N, K, stride_ab, stride_a, stride_bb, stride_b,
                     stride_ob, stride_om, A_ROW: tl.constexpr, B_ROW: tl.constexpr, HAS_BIAS: tl.constexpr,
                     BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    """chain_kernel's plain wgmma k16 chain (one part, no residue turn) with the operand tiles
    brought in by TMA: the same dots on the same tiles in the same K order, so the same bits.
    Each program describes its batch's A and B (device-side descriptors: every base and leading
    stride 16-byte aligned, checked by the launcher). grid = (cdiv(M, BLOCK_M) * cdiv(N, BLOCK_N), batch)."""
    batch = tl.program_id(1).to(tl.int64)
    pid_m, pid_n = swizzled_tile(M, N, BLOCK_M, BLOCK_N)
    a_desc, b_desc = _tma_descs(a_ptr + batch * stride_ab, b_ptr + batch * stride_bb, M, N, K, stride_a, stride_b,
                                A_ROW, B_ROW, BLOCK_M, BLOCK_N, BLOCK_K)
    acc = _tma_chain_tile(a_desc, b_desc, pid_m * BLOCK_M, pid_n * BLOCK_N, K, A_ROW, B_ROW, BLOCK_M, BLOCK_N, BLOCK_K)
    _store_tile(out_ptr + batch * stride_ob, bias_ptr, acc, pid_m * BLOCK_M, pid_n * BLOCK_N, M, N, stride_om,
                HAS_BIAS, BLOCK_M, BLOCK_N)


@triton.jit(do_not_specialize=["K"])
def chain_tma_persistent_kernel(a_ptr, b_ptr, out_ptr, bias_ptr, M, N, K, stride_a, stride_b, stride_om,
                                A_ROW: tl.constexpr, B_ROW: tl.constexpr, HAS_BIAS: tl.constexpr,
                                BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                                PROGRAMS: tl.constexpr, WARP_SPECIALIZE: tl.constexpr):
    """chain_tma_kernel for one (unbatched) product with PROGRAMS programs that each walk tiles
    pid, pid + PROGRAMS, ...: every tile is still one program's whole K chain, in K order (so
    the same bits); the loop nest is flattened so the next tile's loads overlap this one's
    epilogue, and optionally warp-specialised (producer and consumer warps). grid = (PROGRAMS,)."""
    a_desc, b_desc = _tma_descs(a_ptr, b_ptr, M, N, K, stride_a, stride_b, A_ROW, B_ROW, BLOCK_M, BLOCK_N, BLOCK_K)
    tiles = tl.cdiv(M, BLOCK_M) * tl.cdiv(N, BLOCK_N)
    for tile in tl.range(tl.program_id(0), tiles, PROGRAMS, flatten=True, warp_specialize=WARP_SPECIALIZE):
        pid_m, pid_n = tile_of(tile, M, N, BLOCK_M, BLOCK_N)
        acc = _tma_chain_tile(a_desc, b_desc, pid_m * BLOCK_M, pid_n * BLOCK_N, K, A_ROW, B_ROW,
                              BLOCK_M, BLOCK_N, BLOCK_K)
        _store_tile(out_ptr, bias_ptr, acc, pid_m * BLOCK_M, pid_n * BLOCK_N, M, N, stride_om, HAS_BIAS,
                    BLOCK_M, BLOCK_N)


@triton.jit(do_not_specialize=["n_elem", "PARTS", "stride_part", "N"])
def merge_kernel(part_ptr, out_ptr, bias_ptr, n_elem, PARTS, stride_part, N,
                 ROUND_EACH: tl.constexpr, BIAS_MODE: tl.constexpr, BLOCK: tl.constexpr):
    """out = the partials of K's parts summed in K order, over flat elements.

    Partials are contiguous per part, in the workspace's type (fp32 accumulators or
    the output type). ROUND_EACH rounds the running sum to the output type after
    every add (cuBLAS's in-place serial split-K); otherwise it is fp32 throughout.
    BIAS_MODE: 0 none, 1 add in fp32 before the final rounding, 2 add into the first
    part before its rounding (serial), 3 add after the final rounding and round again,
    4 add to the last part's sum with the running value before its rounding (serial).
    """
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elem
    out_ty = out_ptr.dtype.element_ty
    if BIAS_MODE != 0:
        bias = tl.load(bias_ptr + offs % N, mask=mask, other=0.0).to(tl.float32)
    acc = tl.load(part_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    if BIAS_MODE == 2:
        acc = acc + bias
    if ROUND_EACH:
        acc = acc.to(out_ty).to(tl.float32)
    for i in range(1, PARTS):
        x = tl.load(part_ptr + i * stride_part + offs, mask=mask, other=0.0).to(tl.float32)
        acc = x + acc
        if BIAS_MODE == 4:
            acc = tl.where(i == PARTS - 1, acc + bias, acc)
        if ROUND_EACH:
            acc = acc.to(out_ty).to(tl.float32)
    if BIAS_MODE == 1:
        acc = acc + bias
    res = acc.to(out_ty)
    if BIAS_MODE == 3:
        res = (res.to(tl.float32) + bias).to(out_ty)
    tl.store(out_ptr + offs, res, mask=mask)
