"""Triton kernels for cuBLAS's SIMT gemv family (algorithm 13): scalar fp32 chains per lane, a
lane fold, parts merged in K order, one rounding; and for its dot path (algorithm 14, at the end).

It computes what bitorder.emulate.simt's GemvOrder says, step for step: for each output, K cut
into parts of SPAN; inside a part LANES lanes, local index u in chunk u // CHUNK (CHUNK 0: the
contiguous layout, ceil(SPAN / LANES), the last part too, at most CAP), chunk q on lane q % LANES;
each lane one fma.rn.f32 chain in increasing K from +0 (restarted every BLOCKLEN local indices,
counted from each chunk's start with BLOCK_IN_CHUNK, the blocks' totals added in K order:
gemv2T's 512, gemmSN NN's 128); the lanes folded by FOLD; the parts added in K
order in fp32; the bias (beta = 1) added in fp32 before the rounding (BIAS_OUT False) or to the
rounded output (True).
fp16 and bf16 products are exact in fp32, so tl.fma's single rounding is the chain's only one.

The fold's adds never see a product, so no FMA contraction can reach them; a size-2 reduction is
one add whatever the layout (h200-facts.md). Speed is not this kernel's aim yet: each step loads
one element per lane and row.
"""
from __future__ import annotations

import triton
import triton.language as tl
from triton.runtime.jit import constexpr_function

FOLD_CODES = {"down": 0, "up": 1, "seq": 2}


@constexpr_function
def _log2(n):
    return int(n).bit_length() - 1


@constexpr_function
def _split(rows, n, axis):
    """(rows, 2, n/2): lane t and t + n/2 side by side; (rows, n/2, 2): lanes 2j and 2j + 1."""
    return [int(rows), 2, int(n) // 2] if axis == 1 else [int(rows), int(n) // 2, 2]


@triton.jit
def _fold(acc, BLOCK_R: tl.constexpr, LANES: tl.constexpr, FOLD: tl.constexpr):
    """acc (BLOCK_R, LANES) -> (BLOCK_R,): the lanes' fp32 values folded in FOLD's order."""
    if FOLD == 2:      # seq: lane 0 + lane 1, then + lane 2, ...; a lane taken out exactly (x + -0 = x)
        cols = tl.arange(0, LANES)[None, :]
        out = tl.sum(tl.where(cols == 0, acc, -0.0), axis=1)
        for t in tl.static_range(1, LANES):
            out = out + tl.sum(tl.where(cols == t, acc, -0.0), axis=1)
        return out
    else:
        y = acc
        for lvl in tl.static_range(_log2(LANES)):
            if FOLD == 0:  # down: lane t takes lane t + half
                y = tl.sum(tl.reshape(y, _split(BLOCK_R, LANES >> lvl, 1), can_reorder=False), axis=1)
            else:          # up: neighbours first (t takes t + 1, then t + 2, ...)
                y = tl.sum(tl.reshape(y, _split(BLOCK_R, LANES >> lvl, 2), can_reorder=False), axis=2)
        return tl.reshape(y, [BLOCK_R], can_reorder=False)


@triton.jit
def gemv_kernel(a_ptr, v_ptr, out_ptr, bias_ptr, R, K, stride_ar, stride_ak, stride_v, stride_o, stride_bias, SPAN, CHUNK, CAP, BLOCKLEN,
                stride_ab, stride_vb, stride_ob, NLANES,
                LANES: tl.constexpr, FOLD: tl.constexpr, HAS_BIAS: tl.constexpr, BIAS_OUT: tl.constexpr,
                BLOCK_R: tl.constexpr, BLOCK_IN_CHUNK: tl.constexpr, UNROLL: tl.constexpr = 8):
    """out[r] = epilogue(sum over k of a[r, k] * v[k]) for BLOCK_R rows r of batch entry
    program_id(1) (batch strides stride_ab, stride_vb, stride_ob); grid (cdiv(R, BLOCK_R), batch).
    NLANES lanes take elements (LANES, a power of two, at least NLANES: the lanes past NLANES stay +0,
    which the fold adds exactly: a chain started at +0 is never -0, so x + +0 == x)
    Returns the bytes bitorder.emulate.simt.matmul gives for the same GemvOrder (merge
    sequential, product fma), entry by entry."""
    z = tl.program_id(1).to(tl.int64)
    a_ptr += z * stride_ab
    v_ptr += z * stride_vb
    out_ptr += z * stride_ob
    rows = tl.program_id(0) * BLOCK_R + tl.arange(0, BLOCK_R)
    lanes = tl.arange(0, LANES)
    r_ok = rows < R
    a_rows = a_ptr + rows[:, None].to(tl.int64) * stride_ar
    total = tl.zeros([BLOCK_R], tl.float32)
    for p in range(0, tl.cdiv(K, SPAN)):
        start = p * SPAN
        length = tl.minimum(SPAN, K - start)
        chunk = tl.cdiv(SPAN, NLANES) if CHUNK == 0 else CHUNK    # the last part keeps the span's chunk
        if CAP > 0:        # (CHUNK 0 only) contiguous slices of at most CAP, then round robin
            chunk = tl.minimum(chunk, CAP)
        acc = tl.zeros([BLOCK_R, LANES], tl.float32)
        bank = tl.zeros([BLOCK_R, LANES], tl.float32)
        steps = tl.cdiv(length, chunk * NLANES) * chunk
        for j0 in range(0, steps, UNROLL):
            for t in tl.static_range(UNROLL):     # UNROLL steps a trip: their loads issue together, each chain in order
                j = j0 + t
                u = (lanes + NLANES * (j // chunk)) * chunk + j % chunk
                ok = (u < length) & (j < steps) & (lanes < NLANES)
                if BLOCKLEN > 0:   # a lane whose element opens a new block banks its chain and restarts at +0
                    i = tl.maximum(j - 1, 0)
                    before = (lanes + NLANES * (i // chunk)) * chunk + i % chunk
                    if BLOCK_IN_CHUNK:   # blocks counted from each chunk's start (gemmSN NN)
                        opens = (j // chunk != i // chunk) | ((j % chunk) // BLOCKLEN != (i % chunk) // BLOCKLEN)
                    else:
                        opens = u // BLOCKLEN != before // BLOCKLEN
                    new = ok & (j > 0) & opens
                    bank = tl.where(new[None, :], bank + acc, bank)
                    acc = tl.where(new[None, :], 0.0, acc)
                k = (start + u).to(tl.int64)
                a = tl.load(a_rows + k[None, :] * stride_ak, mask=r_ok[:, None] & ok[None, :], other=0.0)
                x = tl.load(v_ptr + k * stride_v, mask=ok, other=0.0)
                acc = tl.where(ok[None, :], tl.fma(a.to(tl.float32), x.to(tl.float32)[None, :], acc), acc)
        if BLOCKLEN > 0:
            acc = bank + acc
        part = _fold(acc, BLOCK_R, LANES, FOLD)
        total = tl.where(p == 0, part, total + part)      # parts in K order (the first taken as is)
    if HAS_BIAS:
        bias = tl.load(bias_ptr + rows * stride_bias, mask=r_ok, other=0.0).to(tl.float32)
        if BIAS_OUT:
            total = total.to(out_ptr.dtype.element_ty).to(tl.float32) + bias
        else:
            total = total + bias
    tl.store(out_ptr + rows.to(tl.int64) * stride_o, total.to(out_ptr.dtype.element_ty), mask=r_ok)


@triton.jit
def _gemv_part(a_rows, v_ptr, r_ok, p, K, stride_ak, stride_v, SPAN, CHUNK, CAP, BLOCKLEN, NLANES,
               LANES: tl.constexpr, FOLD: tl.constexpr, BLOCK_R: tl.constexpr, BLOCK_IN_CHUNK: tl.constexpr,
               UNROLL: tl.constexpr):
    """Part p's fp32 value (BLOCK_R,) for the rows at a_rows: every lane's chain, then the lane fold:
    gemv_kernel's loop body, step for step (kept inline there, where the H200 gates ran it, until
    gemv_parts_kernel is gated too)."""
    lanes = tl.arange(0, LANES)
    start = p * SPAN
    length = tl.minimum(SPAN, K - start)
    chunk = tl.cdiv(SPAN, NLANES) if CHUNK == 0 else CHUNK    # the last part keeps the span's chunk
    if CAP > 0:        # (CHUNK 0 only) contiguous slices of at most CAP, then round robin
        chunk = tl.minimum(chunk, CAP)
    acc = tl.zeros([BLOCK_R, LANES], tl.float32)
    bank = tl.zeros([BLOCK_R, LANES], tl.float32)
    steps = tl.cdiv(length, chunk * NLANES) * chunk
    for j0 in range(0, steps, UNROLL):
        for t in tl.static_range(UNROLL):     # UNROLL steps a trip: their loads issue together, each chain in order
            j = j0 + t
            u = (lanes + NLANES * (j // chunk)) * chunk + j % chunk
            ok = (u < length) & (j < steps) & (lanes < NLANES)
            if BLOCKLEN > 0:   # a lane whose element opens a new block banks its chain and restarts at +0
                i = tl.maximum(j - 1, 0)
                before = (lanes + NLANES * (i // chunk)) * chunk + i % chunk
                if BLOCK_IN_CHUNK:   # blocks counted from each chunk's start (gemmSN NN)
                    opens = (j // chunk != i // chunk) | ((j % chunk) // BLOCKLEN != (i % chunk) // BLOCKLEN)
                else:
                    opens = u // BLOCKLEN != before // BLOCKLEN
                new = ok & (j > 0) & opens
                bank = tl.where(new[None, :], bank + acc, bank)
                acc = tl.where(new[None, :], 0.0, acc)
            k = (start + u).to(tl.int64)
            a = tl.load(a_rows + k[None, :] * stride_ak, mask=r_ok[:, None] & ok[None, :], other=0.0)
            x = tl.load(v_ptr + k * stride_v, mask=ok, other=0.0)
            acc = tl.where(ok[None, :], tl.fma(a.to(tl.float32), x.to(tl.float32)[None, :], acc), acc)
    if BLOCKLEN > 0:
        acc = bank + acc
    return _fold(acc, BLOCK_R, LANES, FOLD)


@triton.jit
def _gemv_store(total, out_ptr, bias_ptr, rows, r_ok, stride_o, stride_bias, HAS_BIAS: tl.constexpr,
                BIAS_OUT: tl.constexpr):
    """The epilogue: the bias (beta = 1) in fp32 before the one rounding, or on the rounded output."""
    if HAS_BIAS:
        bias = tl.load(bias_ptr + rows * stride_bias, mask=r_ok, other=0.0).to(tl.float32)
        if BIAS_OUT:
            total = total.to(out_ptr.dtype.element_ty).to(tl.float32) + bias
        else:
            total = total + bias
    tl.store(out_ptr + rows.to(tl.int64) * stride_o, total.to(out_ptr.dtype.element_ty), mask=r_ok)


@triton.jit
def gemv_parts_kernel(a_ptr, v_ptr, part_ptr, R, K, stride_ar, stride_ak, stride_v, SPAN, CHUNK, CAP, BLOCKLEN,
                      stride_ab, stride_vb, NLANES, LANES: tl.constexpr, FOLD: tl.constexpr,
                      BLOCK_R: tl.constexpr, BLOCK_IN_CHUNK: tl.constexpr, UNROLL: tl.constexpr = 8):
    """gemv_kernel's part program_id(1) of batch entry program_id(2), for BLOCK_R rows: its fp32 value
    to part_ptr[(entry * parts + part) * R + r]; grid (cdiv(R, BLOCK_R), parts, batch). The parts of a
    split answer side by side, as cuBLAS runs them; gemv_merge_kernel adds them in K order."""
    p = tl.program_id(1)
    z = tl.program_id(2).to(tl.int64)
    rows = tl.program_id(0) * BLOCK_R + tl.arange(0, BLOCK_R)
    r_ok = rows < R
    a_rows = a_ptr + z * stride_ab + rows[:, None].to(tl.int64) * stride_ar
    part = _gemv_part(a_rows, v_ptr + z * stride_vb, r_ok, p, K, stride_ak, stride_v, SPAN, CHUNK, CAP, BLOCKLEN,
                      NLANES, LANES, FOLD, BLOCK_R, BLOCK_IN_CHUNK, UNROLL)
    tl.store(part_ptr + (z * tl.num_programs(1) + p) * R + rows, part, mask=r_ok)


@triton.jit
def gemv_merge_kernel(part_ptr, out_ptr, bias_ptr, R, PARTS, stride_o, stride_bias, stride_ob,
                      HAS_BIAS: tl.constexpr, BIAS_OUT: tl.constexpr, BLOCK_R: tl.constexpr):
    """The parts gemv_parts_kernel wrote, added in K order in fp32 (the first taken as is, as
    gemv_kernel adds them), then gemv_kernel's epilogue; grid (cdiv(R, BLOCK_R), batch)."""
    z = tl.program_id(1).to(tl.int64)
    rows = tl.program_id(0) * BLOCK_R + tl.arange(0, BLOCK_R)
    r_ok = rows < R
    total = tl.zeros([BLOCK_R], tl.float32)
    for p in range(0, PARTS):
        part = tl.load(part_ptr + (z * PARTS + p) * R + rows, mask=r_ok, other=0.0)
        total = tl.where(p == 0, part, total + part)
    _gemv_store(total, out_ptr + z * stride_ob, bias_ptr, rows, r_ok, stride_o, stride_bias, HAS_BIAS, BIAS_OUT)


# -- cuBLAS's dot path (algorithm 14): bitorder.emulate.dot's DotOrder, step for step ---------------

@triton.jit
def dot_partials_kernel(a_ptr, b_ptr, part_ptr, K, stride_a, stride_b, stride_ar, stride_br,
                        SPLIT_XY: tl.constexpr, VEC: tl.constexpr):
    """Block program_id(0) of dot_kernel<float, 128, 0> for output program_id(1) (its vectors at
    a_ptr + r * stride_ar, b_ptr + r * stride_br): its 128 threads' chains (VEC 2: pairs, x and y
    apart when SPLIT_XY; VEC 1: one element a step, one chain), x + y, the block's butterfly
    "down"; writes the fp32 partial at part_ptr[r * G + block]."""
    G = tl.num_programs(0)
    P = G * 128
    r = tl.program_id(1).to(tl.int64)
    a_ptr += r * stride_ar
    b_ptr += r * stride_br
    t = tl.program_id(0) * 128 + tl.arange(0, 128)
    x = tl.zeros([128], tl.float32)
    y = tl.zeros([128], tl.float32)
    for j in range(0, tl.cdiv(tl.cdiv(K, VEC), P)):
        i0 = (t + j * P).to(tl.int64) * VEC
        ok0 = i0 < K
        a0 = tl.load(a_ptr + i0 * stride_a, mask=ok0, other=0.0).to(tl.float32)
        b0 = tl.load(b_ptr + i0 * stride_b, mask=ok0, other=0.0).to(tl.float32)
        x = tl.where(ok0, tl.fma(a0, b0, x), x)
        if VEC == 2:
            ok1 = i0 + 1 < K
            a1 = tl.load(a_ptr + (i0 + 1) * stride_a, mask=ok1, other=0.0).to(tl.float32)
            b1 = tl.load(b_ptr + (i0 + 1) * stride_b, mask=ok1, other=0.0).to(tl.float32)
            if SPLIT_XY:
                y = tl.where(ok1, tl.fma(a1, b1, y), y)
            else:
                x = tl.where(ok1, tl.fma(a1, b1, x), x)
    part = _fold((x + y)[None, :], 1, 128, 0)      # y stays +0 without SPLIT_XY, and x is never -0: x + y = x
    tl.store(part_ptr + r * G + tl.program_id(0) + tl.arange(0, 1), part)


@triton.jit
def dot_reduce_kernel(part_ptr, out_ptr, bias_ptr, G, stride_o, stride_bias, HAS_BIAS: tl.constexpr):
    """reduce_1Block_kernel<float, 128, 7> for output program_id(0) (partials at part_ptr[r * G:]):
    thread t chains partials t, t + 128, ...; t takes t + 64, then t + 32; lanes 0..3 chain
    l, l + 4, ..., l + 28; lane 0 adds 1, 2, 3; + bias (bias_ptr[r * stride_bias]); one rounding."""
    r = tl.program_id(0).to(tl.int64)
    part_ptr += r * G
    lanes = tl.arange(0, 128)
    v = tl.zeros([128], tl.float32)
    for j in range(0, tl.cdiv(G, 128)):
        g = lanes + j * 128
        v = tl.where(g < G, v + tl.load(part_ptr + g, mask=g < G, other=0.0), v)
    v = tl.sum(tl.reshape(v, [1, 2, 64], can_reorder=False), axis=1)          # t + (t + 64)
    v = tl.sum(tl.reshape(v, [1, 2, 32], can_reorder=False), axis=1)          # t + (t + 32)
    lanes4 = tl.trans(tl.reshape(v, [8, 4], can_reorder=False))               # lanes4[l, r] = value 4r + l
    chain = _fold(lanes4, 4, 8, 2)                                            # lane l: l, l + 4, ... in order
    out = _fold(chain[None, :], 1, 4, 2)
    if HAS_BIAS:
        out = out + tl.load(bias_ptr + r * stride_bias + tl.arange(0, 1)).to(tl.float32)
    tl.store(out_ptr + r * stride_o + tl.arange(0, 1), out.to(out_ptr.dtype.element_ty))


# -- magma_sgemmEx (algorithm 16): one fp32 chain per output, K in order ------------------------

@triton.jit
def seq_kernel(a_ptr, b_ptr, out_ptr, bias_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn,
               stride_om, stride_on, stride_ab, stride_bb, stride_ob,
               HAS_BIAS: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    """out[m, n] = round(bias[n] + (((+0 + a[m, 0] b[0, n]) + a[m, 1] b[1, n]) + ...)): every output one
    fp32 chain in increasing K (fp16 / bf16 products are exact in fp32, so fma or mul + add alike),
    the bias (beta = 1) added in fp32, one rounding. Returns bitorder.emulate.simt.matmul's bytes for
    GemvOrder(lanes=1, fold="seq") (MAGMA_ORDER in bitorder.cublas.gemv_rule), entry by entry;
    grid (cdiv(M, BLOCK_M), cdiv(N, BLOCK_N), batch)."""
    z = tl.program_id(2).to(tl.int64)           # batch entry (strides 0 without a batch)
    a_ptr += z * stride_ab
    b_ptr += z * stride_bb
    out_ptr += z * stride_ob
    rm = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    m_ok, n_ok = rm < M, rn < N
    a_rows = a_ptr + rm.to(tl.int64) * stride_am
    b_cols = b_ptr + rn.to(tl.int64) * stride_bn
    acc = tl.zeros([BLOCK_M, BLOCK_N], tl.float32)
    for k in range(0, K):
        a = tl.load(a_rows + k * stride_ak, mask=m_ok, other=0.0).to(tl.float32)
        b = tl.load(b_cols + k * stride_bk, mask=n_ok, other=0.0).to(tl.float32)
        acc = tl.fma(a[:, None], b[None, :], acc)
    if HAS_BIAS:
        acc = acc + tl.load(bias_ptr + rn, mask=n_ok, other=0.0).to(tl.float32)[None, :]
    out = out_ptr + rm[:, None].to(tl.int64) * stride_om + rn[None, :].to(tl.int64) * stride_on
    tl.store(out, acc.to(out_ptr.dtype.element_ty), mask=m_ok[:, None] & n_ok[None, :])
