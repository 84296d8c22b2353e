"""A warp-specialized Gluon twin of kernels_fp8.chain8_kernel's promoting mode (sm_90a): fp8.run's kernel
for promoting chains on TMA-aligned e4m3 operands (BITORDER_FP8_WS=0: chain8_kernel).

The bits contract (the same as chain8_kernel with PROMOTE = 128, torch._scaled_mm with
use_fast_accum=False): per output element (m, n), K is cut into intervals of PROMOTE from k = 0 (the
last one zero past K, by the TMA descriptors' bounds); acc = +0.0 (fp32); for each interval in K order
a fresh wgmma chain from zero (PROMOTE / 32 `wgmma ... k32` e4m3 x e4m3 -> f32 steps in K order, the
first with scale-d 0) is waited for and added: acc = acc + partial, one round-to-nearest fp32 add.
The epilogue is _epilogue8's (SCALE 1-4 order, tensor-wise or ROWWISE scales, HAS_BIAS, one rounding
to the output type), every multiply and add explicitly rounded (mul.rn / add.rn, no fma).

Why it is faster than chain8_kernel: there, both warpgroups of a 128-row tile run one program, so
every trip holds four CTA-wide `bar.sync` and both wait for each other's wgmmas before each add.
Here (cooperative schedule, one 128 x BLOCK_N tile per CTA, the cuBLAS/CUTLASS shape):
  * a 1-warp producer partition issues the TMA loads of a STAGES-deep shared-memory ring: per stage
    A's two 64-row halves and B's BLOCK_N x BLOCK_K tile, all counted on the stage's `ready` mbarrier;
  * two 4-warp consumer partitions (the default one and a worker) each own 64 rows of the tile: each
    waits on `ready`, runs its own fresh chain (one warpgroup_mma over BLOCK_K = PROMOTE), waits for
    its own wgmma group, releases the stage with one mbarrier arrive on `empty` (count 2: one per
    consumer) and adds the partial; then stores its 64 rows itself.
No barrier is shared but the mbarriers of the ring: a consumer never waits for the other one, so while
one adds (or stalls) the other's wgmmas keep the tensor cores busy. (Triton 3.6 still puts a `bar.sync id,
128` of the consumer's own 128 threads before each single-thread mbarrier arrive and before each wait: a
warpgroup-local sync, never one of the CTA; Gluon has no per-thread arrive to avoid it.) OVERLAP (a
constexpr): each consumer issues interval i's chain before it waits for and adds interval i - 1's partial
(two partials alternate, the loop unrolled by two), so its own adds also overlap its wgmmas; the adds are
the same, in the same order.
Per element the chain is chain8_kernel's (each warpgroup's m64nNk32 wgmma covers 64 rows in both kernels;
N width and row placement do not change an element's chain), so the bytes should be the same: the CPU tests
compare the PTX of an interval (tests/gemm/test_fp8_gluon.py), benchmarks/fp8_gluon_check.py the bytes.

PROMOTE is a constexpr launch argument (BLOCK_K = PROMOTE): 64 gives other bytes (the check's fault). PROMOTE = 0
is use_fast_accum=True's pure chain: one chain over all of K from +0 registers, scale-d 1 on every k32 step (as
chain8_kernel's PROMOTE = 0 PTX), one wgmma group in flight, stages of PURE_K. PERSISTENT (speed only): one
program per SM walks every grid-th tile; producer and consumers count the ring's trips across tiles, so the
next tile's loads start while this one's last intervals and epilogue run. Without it the PTX is the gated
kernel's, instruction for instruction (2026-12-04: compared for 8 promoting variants).
chain8_ws2_kernel (run_ws(extra_n=16)) widens a tile by a second column block of its own (144 or 80 columns:
Gluon's blocks are powers of two, cuBLAS's tiles need not be); both kernels share one program (_ws_program), and
chain8_ws_kernel's PTX stayed the gated one (benchmarks/gluon_ptx_compare.py).
"""
import functools
import os

import torch
import triton
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import mbarrier, tma, warpgroup_mma, warpgroup_mma_wait
from triton.experimental.gluon.nvidia.hopper import TensorDescriptor

from . import launch
from .kernels_fp8 import _epilogue8

HALF_M = gl.constexpr(64)    # rows per consumer warpgroup (one wgmma m64)
PURE_K = gl.constexpr(128)   # K per stage of a pure chain (PROMOTE = 0): four k32 steps, as chain8_kernel's tiles
_OUT = (torch.bfloat16, torch.float16, torch.float32)   # the output types run_ws takes
# BITORDER_FP8_FAST_LAUNCH=1 (opt-in, not yet timed or gated on the H200): run_ws launches its kept compiled kernel
# (launch._launch) instead of the Gluon JIT's binding every call: the same compiled kernel, less host time.
FAST_LAUNCH = os.environ.get("BITORDER_FP8_FAST_LAUNCH", "") == "1"


@gluon.jit
def _tile_offsets(tile, M, N, TILE_M: gl.constexpr, BLOCK_N: gl.constexpr):
    """(off_m, off_n) of output tile number `tile`: bands of 8 tile rows (neighbouring tiles share A and B in L2;
    speed only)."""
    grid_m = gl.cdiv(M, TILE_M)
    band = 8 * gl.cdiv(N, BLOCK_N)
    first_m = (tile // band) * 8
    rows = gl.minimum(grid_m - first_m, 8)
    return (first_m + (tile % band) % rows) * TILE_M, ((tile % band) // rows) * BLOCK_N


@gluon.jit
def _producer(a_desc, b_desc, b2_desc, a_bufs, b_bufs, b2_bufs, ready, empty, off_m, off_n, M, N, K, nprog,
              STAGES: gl.constexpr, BLOCK_K: gl.constexpr, CONSUMERS: gl.constexpr, BLOCK_N: gl.constexpr,
              PERSISTENT: gl.constexpr, EXTRA_N: gl.constexpr):
    """The TMA partition (1 warp): the program's tile (off_m, off_n), or with PERSISTENT every nprog-th tile from
    the program's own, through one ring (its trips counted across tiles, so the next tile's loads start while
    the consumers still work on this one)."""
    if PERSISTENT:
        TILE_M: gl.constexpr = HALF_M * CONSUMERS
        n_k = gl.cdiv(K, BLOCK_K)
        it = 0
        for tile in range(gl.program_id(0), gl.cdiv(M, TILE_M) * gl.cdiv(N, BLOCK_N + EXTRA_N), nprog):
            tm, tn = _tile_offsets(tile, M, N, TILE_M, BLOCK_N + EXTRA_N)
            _produce_tile(a_desc, b_desc, b2_desc, a_bufs, b_bufs, b2_bufs, ready, empty, tm, tn, K, it, STAGES,
                          BLOCK_K, CONSUMERS, BLOCK_N, EXTRA_N)
            it += n_k
    else:
        _produce_tile(a_desc, b_desc, b2_desc, a_bufs, b_bufs, b2_bufs, ready, empty, off_m, off_n, K, 0, STAGES,
                      BLOCK_K, CONSUMERS, BLOCK_N, EXTRA_N)


@gluon.jit
def _produce_tile(a_desc, b_desc, b2_desc, a_bufs, b_bufs, b2_bufs, ready, empty, off_m, off_n, K, it0,
                  STAGES: gl.constexpr, BLOCK_K: gl.constexpr, CONSUMERS: gl.constexpr, BLOCK_N: gl.constexpr,
                  EXTRA_N: gl.constexpr):
    """One tile's loads: its trip i is the ring's trip it0 + i, filling stage (it0 + i) % STAGES once every
    consumer released it (EXTRA_N: B's last EXTRA_N columns of the tile in a box of their own)."""
    nbytes: gl.constexpr = (CONSUMERS * a_desc.block_type.nbytes + b_desc.block_type.nbytes
                            + (b2_desc.block_type.nbytes if EXTRA_N > 0 else 0))
    for i in range(gl.cdiv(K, BLOCK_K)):
        j = it0 + i
        s = j % STAGES
        mbarrier.wait(empty.index(s), ((j // STAGES) & 1) ^ 1)   # a fresh mbarrier's "previous" phase is done
        bar = ready.index(s)
        mbarrier.expect(bar, nbytes)
        k = i * BLOCK_K
        tma.async_copy_global_to_shared(a_desc, [off_m, k], bar, a_bufs.index(CONSUMERS * s))
        if CONSUMERS == 2:
            tma.async_copy_global_to_shared(a_desc, [off_m + HALF_M, k], bar, a_bufs.index(2 * s + 1))
        tma.async_copy_global_to_shared(b_desc, [off_n, k], bar, b_bufs.index(s))
        if EXTRA_N > 0:
            tma.async_copy_global_to_shared(b2_desc, [off_n + BLOCK_N, k], bar, b2_bufs.index(s))


@gluon.jit
def _issue(a_bufs, b_bufs, ready, i, zero, HALF: gl.constexpr, STAGES: gl.constexpr, CONSUMERS: gl.constexpr):
    """Wait for stage i % STAGES and issue interval i's fresh chain (async; scale-d 0, then 1)."""
    s = i % STAGES
    mbarrier.wait(ready.index(s), (i // STAGES) & 1)
    return warpgroup_mma(a_bufs.index(CONSUMERS * s + HALF), b_bufs.index(s).permute((1, 0)), zero, use_acc=False,
                         is_async=True)


@gluon.jit
def _retire(part, acc, empty, i, PENDING: gl.constexpr, STAGES: gl.constexpr):
    """Wait until interval i's chain is done (PENDING later ones may still run), release its stage, add it."""
    part = warpgroup_mma_wait(num_outstanding=PENDING, deps=(part, ))
    mbarrier.arrive(empty.index(i % STAGES), count=1)
    return acc + part


@gluon.jit
def _issue2(a_bufs, b_bufs, b2_bufs, ready, i, zero, zero2, HALF: gl.constexpr, STAGES: gl.constexpr,
            CONSUMERS: gl.constexpr):
    """_issue for a tile of two column blocks: interval i's fresh chain on each (two wgmma groups, the first
    block's first). Per element the chain is the same: a column's k32 steps do not depend on the others."""
    s = i % STAGES
    mbarrier.wait(ready.index(s), (i // STAGES) & 1)
    a = a_bufs.index(CONSUMERS * s + HALF)
    x = warpgroup_mma(a, b_bufs.index(s).permute((1, 0)), zero, use_acc=False, is_async=True)
    x2 = warpgroup_mma(a, b2_bufs.index(s).permute((1, 0)), zero2, use_acc=False, is_async=True)
    return x, x2


@gluon.jit
def _retire2(part, part2, acc, acc2, empty, i, PENDING: gl.constexpr, STAGES: gl.constexpr):
    """_retire for two column blocks: interval i's two groups done (2 * PENDING later ones may still run)."""
    part, part2 = warpgroup_mma_wait(num_outstanding=2 * PENDING, deps=(part, part2))
    mbarrier.arrive(empty.index(i % STAGES), count=1)
    return acc + part, acc2 + part2


@gluon.jit
def _consumer(a_bufs, b_bufs, b2_bufs, ready, empty, off_m, off_n, M, N, K, nprog, out_ptr, bias_ptr, sa_ptr, sb_ptr,
              stride_om, HALF: gl.constexpr, SCALE: gl.constexpr, ROWWISE: gl.constexpr, HAS_BIAS: gl.constexpr,
              STAGES: gl.constexpr, BLOCK_N: gl.constexpr, BLOCK_K: gl.constexpr, OVERLAP: gl.constexpr,
              CONSUMERS: gl.constexpr, PURE: gl.constexpr, PERSISTENT: gl.constexpr, EXTRA_N: gl.constexpr):
    """One consumer warpgroup (4 warps): rows HALF * 64 ... + 63 of the program's tile, or with PERSISTENT of the
    producer's tiles in the producer's order, the ring's trips counted as the producer counts them."""
    if PERSISTENT:
        TILE_M: gl.constexpr = HALF_M * CONSUMERS
        n_k = gl.cdiv(K, BLOCK_K)
        it = 0
        for tile in range(gl.program_id(0), gl.cdiv(M, TILE_M) * gl.cdiv(N, BLOCK_N + EXTRA_N), nprog):
            tm, tn = _tile_offsets(tile, M, N, TILE_M, BLOCK_N + EXTRA_N)
            _consume_tile(a_bufs, b_bufs, b2_bufs, ready, empty, tm, tn, M, N, K, it, out_ptr, bias_ptr, sa_ptr,
                          sb_ptr, stride_om, HALF, SCALE, ROWWISE, HAS_BIAS, STAGES, BLOCK_N, BLOCK_K, OVERLAP,
                          CONSUMERS, PURE, EXTRA_N)
            it += n_k
    else:
        _consume_tile(a_bufs, b_bufs, b2_bufs, ready, empty, off_m, off_n, M, N, K, 0, out_ptr, bias_ptr, sa_ptr,
                      sb_ptr, stride_om, HALF, SCALE, ROWWISE, HAS_BIAS, STAGES, BLOCK_N, BLOCK_K, OVERLAP, CONSUMERS,
                      PURE, EXTRA_N)


@gluon.jit
def _consume_tile(a_bufs, b_bufs, b2_bufs, ready, empty, off_m, off_n, M, N, K, it0, out_ptr, bias_ptr, sa_ptr,
                  sb_ptr, stride_om, HALF: gl.constexpr, SCALE: gl.constexpr, ROWWISE: gl.constexpr,
                  HAS_BIAS: gl.constexpr, STAGES: gl.constexpr, BLOCK_N: gl.constexpr, BLOCK_K: gl.constexpr,
                  OVERLAP: gl.constexpr, CONSUMERS: gl.constexpr, PURE: gl.constexpr, EXTRA_N: gl.constexpr):
    """Rows off_m + HALF * 64 ... + 63 of one tile: the whole chain (interval i on the ring's trip it0 + i), then
    the epilogue. EXTRA_N: the tile's last EXTRA_N columns are a second block with accumulators of their own."""
    if EXTRA_N > 0:
        gl.static_assert(OVERLAP and not PURE, "a second column block is written for the overlapped promoting chain")
        _consume_tile2(a_bufs, b_bufs, b2_bufs, ready, empty, off_m, off_n, M, N, K, it0, out_ptr, bias_ptr, sa_ptr,
                       sb_ptr, stride_om, HALF, SCALE, ROWWISE, HAS_BIAS, STAGES, BLOCK_N, BLOCK_K, CONSUMERS, EXTRA_N)
    else:
        _consume_tile1(a_bufs, b_bufs, ready, empty, off_m, off_n, M, N, K, it0, out_ptr, bias_ptr, sa_ptr, sb_ptr,
                       stride_om, HALF, SCALE, ROWWISE, HAS_BIAS, STAGES, BLOCK_N, BLOCK_K, OVERLAP, CONSUMERS, PURE)


@gluon.jit
def _consume_tile1(a_bufs, b_bufs, ready, empty, off_m, off_n, M, N, K, it0, out_ptr, bias_ptr, sa_ptr, sb_ptr,
                   stride_om, HALF: gl.constexpr, SCALE: gl.constexpr, ROWWISE: gl.constexpr, HAS_BIAS: gl.constexpr,
                   STAGES: gl.constexpr, BLOCK_N: gl.constexpr, BLOCK_K: gl.constexpr, OVERLAP: gl.constexpr,
                   CONSUMERS: gl.constexpr, PURE: gl.constexpr):
    """A one-block tile's chain and epilogue (_consume_tile)."""
    layout: gl.constexpr = gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1],
                                                     instr_shape=[16, BLOCK_N, 32])
    zero = gl.zeros([HALF_M, BLOCK_N], gl.float32, layout)
    acc = gl.zeros([HALF_M, BLOCK_N], gl.float32, layout)
    n_k = gl.cdiv(K, BLOCK_K)
    if PURE:
        # use_fast_accum=True: one chain over all of K into acc (+0 to start, scale-d 1 on every step, as
        # chain8_kernel's PROMOTE = 0 PTX has it). One wgmma group stays in flight: waiting down to one
        # outstanding means interval i - 1's group is done, so its stage goes back to the producer.
        for i in range(n_k):
            j = it0 + i
            s = j % STAGES
            mbarrier.wait(ready.index(s), (j // STAGES) & 1)
            acc = warpgroup_mma(a_bufs.index(CONSUMERS * s + HALF), b_bufs.index(s).permute((1, 0)), acc,
                                is_async=True)
            acc = warpgroup_mma_wait(num_outstanding=1, deps=(acc, ))
            if i > 0:
                mbarrier.arrive(empty.index((j - 1) % STAGES), count=1)
        acc = warpgroup_mma_wait(num_outstanding=0, deps=(acc, ))
        mbarrier.arrive(empty.index((it0 + n_k - 1) % STAGES), count=1)   # the last stage, for the next tile
    elif OVERLAP:
        # interval i's chain is issued before interval i - 1's partial is added, so the adds run while the
        # tensor cores work: the same adds in the same order. Two partials alternate (x, y; unrolled by two so
        # that no register copy touches a partial in flight, which ptxas would serialize: C7514).
        x = _issue(a_bufs, b_bufs, ready, it0, zero, HALF, STAGES, CONSUMERS)
        for j in range(0, (n_k - 1) // 2):
            i = it0 + 1 + 2 * j
            y = _issue(a_bufs, b_bufs, ready, i, zero, HALF, STAGES, CONSUMERS)
            acc = _retire(x, acc, empty, i - 1, 1, STAGES)
            x = _issue(a_bufs, b_bufs, ready, i + 1, zero, HALF, STAGES, CONSUMERS)
            acc = _retire(y, acc, empty, i, 1, STAGES)
        last = it0 + n_k - 1
        if (n_k - 1) % 2 == 1:
            y = _issue(a_bufs, b_bufs, ready, last, zero, HALF, STAGES, CONSUMERS)
            acc = _retire(x, acc, empty, last - 1, 1, STAGES)
            acc = _retire(y, acc, empty, last, 0, STAGES)
        else:
            acc = _retire(x, acc, empty, last, 0, STAGES)
    else:
        for i in range(n_k):
            j = it0 + i
            s = j % STAGES
            mbarrier.wait(ready.index(s), (j // STAGES) & 1)
            a = a_bufs.index(CONSUMERS * s + HALF)
            b = b_bufs.index(s).permute((1, 0))
            part = warpgroup_mma(a, b, zero, use_acc=False, is_async=True)   # a fresh chain: scale-d 0, then 1
            part, _, _ = warpgroup_mma_wait(num_outstanding=0, deps=(part, a, b))
            mbarrier.arrive(empty.index(s), count=1)   # this consumer is done with the stage
            acc = acc + part                             # the promotion: one round-to-nearest fp32 add
    # chain8_kernel's own epilogue (_epilogue8, a @triton.jit function Gluon calls) on this warpgroup's 64 rows
    rm = off_m + HALF * HALF_M + gl.arange(0, HALF_M, layout=gl.SliceLayout(1, layout))
    rn = off_n + gl.arange(0, BLOCK_N, layout=gl.SliceLayout(0, layout))
    _epilogue8(acc, rm, rn, gl.expand_dims(rm < M, 1), gl.expand_dims(rn < N, 0), out_ptr, bias_ptr, sa_ptr, sb_ptr,
               M, N, stride_om, SCALE, ROWWISE, HAS_BIAS)


@gluon.jit
def _consume_tile2(a_bufs, b_bufs, b2_bufs, ready, empty, off_m, off_n, M, N, K, it0, out_ptr, bias_ptr, sa_ptr,
                   sb_ptr, stride_om, HALF: gl.constexpr, SCALE: gl.constexpr, ROWWISE: gl.constexpr,
                   HAS_BIAS: gl.constexpr, STAGES: gl.constexpr, BLOCK_N: gl.constexpr, BLOCK_K: gl.constexpr,
                   CONSUMERS: gl.constexpr, EXTRA_N: gl.constexpr):
    """_consume_tile's OVERLAP chain on a tile of BLOCK_N + EXTRA_N columns: both blocks' fresh chains per interval,
    each added to its own accumulator in K order (the adds of every element as in the one-block tile), then the
    epilogue on each block."""
    layout: gl.constexpr = gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1],
                                                     instr_shape=[16, BLOCK_N, 32])
    layout2: gl.constexpr = gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1],
                                                      instr_shape=[16, EXTRA_N, 32])
    zero = gl.zeros([HALF_M, BLOCK_N], gl.float32, layout)
    zero2 = gl.zeros([HALF_M, EXTRA_N], gl.float32, layout2)
    acc = gl.zeros([HALF_M, BLOCK_N], gl.float32, layout)
    acc2 = gl.zeros([HALF_M, EXTRA_N], gl.float32, layout2)
    n_k = gl.cdiv(K, BLOCK_K)
    x, x2 = _issue2(a_bufs, b_bufs, b2_bufs, ready, it0, zero, zero2, HALF, STAGES, CONSUMERS)
    for j in range(0, (n_k - 1) // 2):
        i = it0 + 1 + 2 * j
        y, y2 = _issue2(a_bufs, b_bufs, b2_bufs, ready, i, zero, zero2, HALF, STAGES, CONSUMERS)
        acc, acc2 = _retire2(x, x2, acc, acc2, empty, i - 1, 1, STAGES)
        x, x2 = _issue2(a_bufs, b_bufs, b2_bufs, ready, i + 1, zero, zero2, HALF, STAGES, CONSUMERS)
        acc, acc2 = _retire2(y, y2, acc, acc2, empty, i, 1, STAGES)
    last = it0 + n_k - 1
    if (n_k - 1) % 2 == 1:
        y, y2 = _issue2(a_bufs, b_bufs, b2_bufs, ready, last, zero, zero2, HALF, STAGES, CONSUMERS)
        acc, acc2 = _retire2(x, x2, acc, acc2, empty, last - 1, 1, STAGES)
        acc, acc2 = _retire2(y, y2, acc, acc2, empty, last, 0, STAGES)
    else:
        acc, acc2 = _retire2(x, x2, acc, acc2, empty, last, 0, STAGES)
    rm = off_m + HALF * HALF_M + gl.arange(0, HALF_M, layout=gl.SliceLayout(1, layout))
    rn = off_n + gl.arange(0, BLOCK_N, layout=gl.SliceLayout(0, layout))
    _epilogue8(acc, rm, rn, gl.expand_dims(rm < M, 1), gl.expand_dims(rn < N, 0), out_ptr, bias_ptr, sa_ptr, sb_ptr,
               M, N, stride_om, SCALE, ROWWISE, HAS_BIAS)
    rm2 = off_m + HALF * HALF_M + gl.arange(0, HALF_M, layout=gl.SliceLayout(1, layout2))
    rn2 = off_n + BLOCK_N + gl.arange(0, EXTRA_N, layout=gl.SliceLayout(0, layout2))
    _epilogue8(acc2, rm2, rn2, gl.expand_dims(rm2 < M, 1), gl.expand_dims(rn2 < N, 0), out_ptr, bias_ptr, sa_ptr,
               sb_ptr, M, N, stride_om, SCALE, ROWWISE, HAS_BIAS)


@gluon.jit
def _consumer1(a_bufs, b_bufs, b2_bufs, ready, empty, off_m, off_n, M, N, K, nprog, out_ptr, bias_ptr, sa_ptr, sb_ptr,
               stride_om, SCALE: gl.constexpr, ROWWISE: gl.constexpr, HAS_BIAS: gl.constexpr,
               STAGES: gl.constexpr, BLOCK_N: gl.constexpr, BLOCK_K: gl.constexpr, OVERLAP: gl.constexpr,
               PURE: gl.constexpr, PERSISTENT: gl.constexpr, EXTRA_N: gl.constexpr):
    _consumer(a_bufs, b_bufs, b2_bufs, ready, empty, off_m, off_n, M, N, K, nprog, out_ptr, bias_ptr, sa_ptr, sb_ptr,
              stride_om, 1, SCALE, ROWWISE, HAS_BIAS, STAGES, BLOCK_N, BLOCK_K, OVERLAP, 2, PURE, PERSISTENT, EXTRA_N)


@gluon.jit
def chain8_ws_kernel(a_desc, b_desc, out_ptr, bias_ptr, sa_ptr, sb_ptr, M, N, K, stride_om,
                     PROMOTE: gl.constexpr, SCALE: gl.constexpr, ROWWISE: gl.constexpr, HAS_BIAS: gl.constexpr,
                     BLOCK_N: gl.constexpr, STAGES: gl.constexpr, OVERLAP: gl.constexpr = False,
                     CONSUMER_REGS: gl.constexpr = 232, PRODUCER_REGS: gl.constexpr = 40,
                     CONSUMERS: gl.constexpr = 2, PERSISTENT: gl.constexpr = False):
    """out = epilogue(the promoting K chain of A @ B) for one (64 * CONSUMERS) x BLOCK_N tile per program (the
    module's docstring; CONSUMERS 1 for M <= 64, where a second warpgroup would only multiply zeros).
    a_desc: A (M x K, row-major) in 64 x PROMOTE boxes; b_desc: B^T (N x K, row-major) in
    BLOCK_N x PROMOTE boxes; both zero past their bounds. grid = (cdiv(M, 64 * CONSUMERS) * cdiv(N, BLOCK_N),),
    num_warps = 4 (the default partition: consumer 0)."""
    _ws_program(a_desc, b_desc, b_desc, out_ptr, bias_ptr, sa_ptr, sb_ptr, M, N, K, stride_om, PROMOTE, SCALE, ROWWISE,
                HAS_BIAS, BLOCK_N, STAGES, OVERLAP, CONSUMER_REGS, PRODUCER_REGS, CONSUMERS, PERSISTENT, 0)


@gluon.jit
def chain8_ws2_kernel(a_desc, b_desc, b2_desc, out_ptr, bias_ptr, sa_ptr, sb_ptr, M, N, K, stride_om,
                      PROMOTE: gl.constexpr, SCALE: gl.constexpr, ROWWISE: gl.constexpr, HAS_BIAS: gl.constexpr,
                      BLOCK_N: gl.constexpr, STAGES: gl.constexpr, OVERLAP: gl.constexpr = False,
                      CONSUMER_REGS: gl.constexpr = 232, PRODUCER_REGS: gl.constexpr = 40,
                      CONSUMERS: gl.constexpr = 2, PERSISTENT: gl.constexpr = False):
    """chain8_ws_kernel on tiles of BLOCK_N + EXTRA_N columns, EXTRA_N = b2_desc's box rows: B's columns
    off_n ... + BLOCK_N - 1 from b_desc, the next EXTRA_N from b2_desc (Gluon's blocks are powers of two; cuBLAS's
    tiles are not, e.g. 144 columns, and a grid that fits one wave beats one just past it). OVERLAP promoting
    chains only. grid = (cdiv(M, 64 * CONSUMERS) * cdiv(N, BLOCK_N + EXTRA_N),)."""
    _ws_program(a_desc, b_desc, b2_desc, out_ptr, bias_ptr, sa_ptr, sb_ptr, M, N, K, stride_om, PROMOTE, SCALE,
                ROWWISE, HAS_BIAS, BLOCK_N, STAGES, OVERLAP, CONSUMER_REGS, PRODUCER_REGS, CONSUMERS, PERSISTENT,
                b2_desc.block_type.shape[0])


@gluon.jit
def _ws_program(a_desc, b_desc, b2_desc, out_ptr, bias_ptr, sa_ptr, sb_ptr, M, N, K, stride_om,
                PROMOTE: gl.constexpr, SCALE: gl.constexpr, ROWWISE: gl.constexpr, HAS_BIAS: gl.constexpr,
                BLOCK_N: gl.constexpr, STAGES: gl.constexpr, OVERLAP: gl.constexpr, CONSUMER_REGS: gl.constexpr,
                PRODUCER_REGS: gl.constexpr, CONSUMERS: gl.constexpr, PERSISTENT: gl.constexpr,
                EXTRA_N: gl.constexpr):
    """Both kernels' program: the ring, its mbarriers and the partitions (EXTRA_N 0: one column block, b2_desc
    unused)."""
    PURE: gl.constexpr = PROMOTE == 0
    BLOCK_K: gl.constexpr = PURE_K if PURE else PROMOTE
    gl.static_assert(a_desc.block_type.shape[0] == HALF_M and a_desc.block_type.shape[1] == BLOCK_K)
    gl.static_assert(b_desc.block_type.shape[0] == BLOCK_N and b_desc.block_type.shape[1] == BLOCK_K)
    off_m, off_n = _tile_offsets(gl.program_id(0), M, N, HALF_M * CONSUMERS, BLOCK_N + EXTRA_N)   # PERSISTENT: unused
    nprog = gl.num_programs(0)

    a_bufs = gl.allocate_shared_memory(a_desc.dtype, [CONSUMERS * STAGES, HALF_M, BLOCK_K], a_desc.layout)
    b_bufs = gl.allocate_shared_memory(b_desc.dtype, [STAGES, BLOCK_N, BLOCK_K], b_desc.layout)
    if EXTRA_N > 0:
        gl.static_assert(b2_desc.block_type.shape[1] == BLOCK_K)
        b2_bufs = gl.allocate_shared_memory(b2_desc.dtype, [STAGES, EXTRA_N, BLOCK_K], b2_desc.layout)
    else:
        b2_bufs = b_bufs   # (no second block: never read)
    ready = gl.allocate_shared_memory(gl.int64, [STAGES, 1], mbarrier.MBarrierLayout())
    empty = gl.allocate_shared_memory(gl.int64, [STAGES, 1], mbarrier.MBarrierLayout())
    for s in gl.static_range(STAGES):
        mbarrier.init(ready.index(s), count=1)   # the producer's expect; the TMA bytes complete it
        mbarrier.init(empty.index(s), count=CONSUMERS)   # one arrive per consumer warpgroup

    if CONSUMERS == 2:
        gl.warp_specialize([
            (_consumer, (a_bufs, b_bufs, b2_bufs, ready, empty, off_m, off_n, M, N, K, nprog, out_ptr, bias_ptr,
                         sa_ptr, sb_ptr, stride_om, 0, SCALE, ROWWISE, HAS_BIAS, STAGES, BLOCK_N, BLOCK_K, OVERLAP,
                         CONSUMERS, PURE, PERSISTENT, EXTRA_N)),
            (_consumer1, (a_bufs, b_bufs, b2_bufs, ready, empty, off_m, off_n, M, N, K, nprog, out_ptr, bias_ptr,
                          sa_ptr, sb_ptr, stride_om, SCALE, ROWWISE, HAS_BIAS, STAGES, BLOCK_N, BLOCK_K, OVERLAP, PURE,
                          PERSISTENT, EXTRA_N)),
            (_producer, (a_desc, b_desc, b2_desc, a_bufs, b_bufs, b2_bufs, ready, empty, off_m, off_n, M, N, K, nprog,
                         STAGES, BLOCK_K, CONSUMERS, BLOCK_N, PERSISTENT, EXTRA_N)),
        ], [4, 1], [CONSUMER_REGS, PRODUCER_REGS])
    else:
        gl.warp_specialize([
            (_consumer, (a_bufs, b_bufs, b2_bufs, ready, empty, off_m, off_n, M, N, K, nprog, out_ptr, bias_ptr,
                         sa_ptr, sb_ptr, stride_om, 0, SCALE, ROWWISE, HAS_BIAS, STAGES, BLOCK_N, BLOCK_K, OVERLAP,
                         CONSUMERS, PURE, PERSISTENT, EXTRA_N)),
            (_producer, (a_desc, b_desc, b2_desc, a_bufs, b_bufs, b2_bufs, ready, empty, off_m, off_n, M, N, K, nprog,
                         STAGES, BLOCK_K, CONSUMERS, BLOCK_N, PERSISTENT, EXTRA_N)),
        ], [1], [PRODUCER_REGS])


@functools.lru_cache(maxsize=None)
def _box_layout(rows: int, cols: int):
    """The e4m3 shared layout of a rows x cols TMA box. Kept: building it cost ~9 us a call on the CPU, twice a
    launch; the layout is a value of (rows, cols) alone."""
    return gl.NVMMASharedLayout.get_default_for([rows, cols], gl.float8e4nv)


def descriptors(a, bt, block_n: int, promote: int):
    """Host TMA descriptors: A (M x K) in 64 x promote boxes, B^T (N x K) in block_n x promote boxes (promote 0,
    a pure chain: PURE_K-deep boxes)."""
    promote = promote or PURE_K.value
    la, lb = _box_layout(HALF_M.value, promote), _box_layout(block_n, promote)
    return (TensorDescriptor(a, list(a.shape), list(a.stride()), [HALF_M.value, promote], la),
            TensorDescriptor(bt, list(bt.shape), list(bt.stride()), [block_n, promote], lb))


def launch_maxnreg(consumers: int, maxnreg=None) -> int:
    """run_ws's register cap for a launch: the one asked for, else 168 with two consumers (168 x 384 threads fill the
    register file; setmaxnreg then gives each consumer 232) and 232 with one."""
    return maxnreg or (168 if consumers == 2 else 232)


def run_ws(a, b, scale_a, scale_b, bias=None, out_dtype=torch.bfloat16, block_n=128, stages=4, promote=128,
           scale_code=1, overlap=False, maxnreg=None, consumers=None, persistent=False, extra_n=0):
    """chain8_kernel's bytes with PROMOTE = promote (default 128; 0: the pure chain, use_fast_accum=True) for a
    (M x K, row-major e4m3) @
    b (K x N, column-major e4m3) with fp32 scales (tensor-wise: one element each; row-wise: (M, 1) and
    (1, N)), an optional bias of N elements of out_dtype, out_dtype bf16, fp16 or fp32. scale_code is
    chain8_kernel's SCALE (1: acc * (sa * sb), torch's tensor-wise order). block_n, stages and overlap (issue
    the next interval's chain before adding this one's partial) are speed knobs; maxnreg (the launch's cap,
    168 x 384 threads = the register file) lets setmaxnreg give each consumer 232; with one consumer, 168 lets two
    programs share an SM (their rings at 64 or 32 columns fit twice in shared memory). consumers: warpgroups per tile
    (default 1 where M <= 64, else 2; speed only: a row's chain is the same in either). persistent: one program per
    SM (at most one per tile) walks every grid-th tile through one ring, so the next tile's loads overlap this
    one's last intervals and epilogue (speed only: each tile's chains are the same). extra_n (16 or 32; overlapped
    promoting chains): tiles of block_n + extra_n columns, the last extra_n a second block (chain8_ws2_kernel;
    speed only: a column's chain does not depend on the block it sits in)."""
    if a.dtype != torch.float8_e4m3fn or b.dtype != torch.float8_e4m3fn:
        raise ValueError("a and b must be float8_e4m3fn")
    if a.dim() != 2 or b.dim() != 2 or a.shape[1] != b.shape[0]:
        raise ValueError(f"a {tuple(a.shape)} and b {tuple(b.shape)} do not multiply")
    M, K = a.shape
    N = b.shape[1]
    if K % 16:
        raise ValueError(f"K must be a multiple of 16, got {K}")
    if a.stride(1) != 1 or b.stride(0) != 1:
        raise ValueError("a must be row-major and b column-major (b = w.t() of a row-major w)")
    if a.data_ptr() % 16 or b.data_ptr() % 16 or a.stride(0) % 16 or b.stride(1) % 16:
        raise ValueError("a and b need 16-byte-aligned bases and leading strides (TMA)")
    if out_dtype not in _OUT:
        raise ValueError(f"out_dtype must be bf16, fp16 or fp32, got {out_dtype}")
    rowwise = not (scale_a.numel() == 1 and scale_b.numel() == 1)
    if rowwise and (scale_a.numel() != M or scale_b.numel() != N):
        raise ValueError("scales must be tensor-wise or row-wise ((M, 1) and (1, N))")
    if bias is not None and (bias.numel() != N or bias.dtype != out_dtype):
        raise ValueError(f"bias must have {N} elements of {out_dtype}")
    if block_n not in (32, 64, 128, 256) or promote not in (0, 32, 64, 128):
        raise ValueError("block_n must be 32, 64, 128 or 256 and promote 0 (a pure chain), 32, 64 or 128")
    consumers = consumers or (1 if M <= HALF_M.value else 2)
    if consumers not in (1, 2):
        raise ValueError("consumers must be 1 or 2")
    if extra_n and (extra_n not in (16, 32) or not overlap or not promote):
        raise ValueError("extra_n must be 16 or 32, on an overlapped promoting chain")
    maxnreg = launch_maxnreg(consumers, maxnreg)
    out = torch.empty((M, N), dtype=out_dtype, device=a.device)
    a_desc, b_desc = descriptors(a, b.t(), block_n, promote)
    tiles = triton.cdiv(M, HALF_M.value * consumers) * triton.cdiv(N, block_n + extra_n)
    grid = (min(tiles, launch._sm_count()) if persistent else tiles,)
    kernel, descs = chain8_ws_kernel, (a_desc, b_desc)
    if extra_n:
        kernel, descs = chain8_ws2_kernel, (a_desc, b_desc, descriptors(a, b.t(), extra_n, promote)[1])
    tail = (out, bias if bias is not None else out, scale_a, scale_b, M, N, K, N)
    if FAST_LAUNCH:
        # every parameter in order, the register constexprs at the kernel's own defaults (launch._launch hands them
        # all to the launcher, as the JIT does)
        regs = [p.default for p in kernel.params if p.name in ("CONSUMER_REGS", "PRODUCER_REGS")]
        args = (*descs, *tail, promote, scale_code, rowwise, bias is not None, block_n, stages, bool(overlap), *regs,
                consumers, bool(persistent))
        launch._launch(kernel, grid, args, 4, None, fast=True, maxnreg=maxnreg)
    else:   # the Gluon JIT's own launch, as the gates ran it
        kernel[grid](*descs, *tail, PROMOTE=promote, SCALE=scale_code, ROWWISE=rowwise, HAS_BIAS=bias is not None,
                     BLOCK_N=block_n, STAGES=stages, OVERLAP=bool(overlap), CONSUMERS=consumers, num_warps=4,
                     PERSISTENT=bool(persistent), maxnreg=maxnreg)
    return out


def run_chain8(a, b, scale_a, scale_b, bias=None, out_dtype=torch.bfloat16, promote=128, scale_code=1):
    """The reference: kernels_fp8.chain8_kernel itself on TMA tiles (as fp8.run launches a plain promoting
    descriptor: 128 x 128 x PROMOTE, 8 warps, 4 stages; promote 0: the pure chain in 128-deep tiles), whatever
    cuBLAS would have planned."""
    from .kernels_fp8 import chain8_kernel

    M, K = a.shape
    N = b.shape[1]
    out = torch.empty((M, N), dtype=out_dtype, device=a.device)
    launch.ensure_allocator()
    rowwise = not (scale_a.numel() == 1 and scale_b.numel() == 1)
    chain8_kernel[(triton.cdiv(M, 128) * triton.cdiv(N, 128),)](
        a, b, out, bias if bias is not None else out, scale_a, scale_b, M, N, K, a.stride(0), b.stride(1), N,
        A_ROW=True, B_ROW=False, PROMOTE=promote, SCALE=scale_code, ROWWISE=rowwise, HAS_BIAS=bias is not None,
        BLOCK_M=128, BLOCK_N=128, BLOCK_K=promote or PURE_K.value, TMA=True, num_warps=8, num_stages=4)
    return out
