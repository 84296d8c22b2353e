"""bitorder.scaled_mm: torch._scaled_mm's exact bytes for fp8 operands, planned like cuBLASLt.

torch 2.11 on sm_90 with cuBLAS 13.1 hands both tensor-wise and row-wise scaled products to
cuBLASLt (at::cuda::blas::scaled_gemm): torch's b is cuBLAS's A, transposed ("T", "N"),
compute fp32, the scales as A/B scale pointers with the SCALAR_32F or OUTER_VEC_32F mode,
FAST_ACCUM from use_fast_accum, the BIAS epilogue for a bias, one heuristic answer asked with
a 1 MiB workspace and no alignment preferences. The answer maps through the arch profile to
a GEMMDesc and kernels_fp8.chain8_kernel (promoting chains: kernels_fp8_gluon.run_ws) computes it
(split-K answers: part8_kernel's per-part chains into an fp32 workspace, then merge8_kernel). The
profile's fp8 entries are verified (benchmarks/gate_fp8.py on the H200, 2026-12-04: 63,312 cases, every
one torch answered byte-identical). Calls no verified entry describes, and cuBLAS's own split-K tail
drop, run torch._scaled_mm itself: exact by definition, counted in bitorder.gemm.stats() and warned
about once.
"""
from __future__ import annotations

import dataclasses
import functools
import os
import time
from typing import NamedTuple, Optional

import torch
import triton

from ..desc import GEMMDesc
from . import api, launch
from .kernels_fp8 import chain8_kernel, chain8_persistent_kernel, merge8_kernel, part8_kernel

_FP8 = {torch.float8_e4m3fn: "e4m3", torch.float8_e5m2: "e5m2"}
_OUT = {torch.bfloat16: "bf16", torch.float16: "fp16", torch.float32: "fp32"}
# Row-wise (OUTER_VEC_32F) queries without scale pointers got no heuristic answer on the H200
# (2026-11-30b fp8 gate: 853 cases) while torch's own call ran nvjet (algo 66): torch sets the
# pointers before it asks. The heuristic does not read them; a 256-aligned stand-in keeps the
# query the same for every call (its answer is cached). The 2026-12-04 gate's 5,932 identical
# row-wise cases were planned from it.
ROW_SCALE_STANDIN = 1 << 16
# With the stand-in the query answered (algo 66, as for tensor-wise scales), but the tensor-wise
# epilogue on that answer gave other bytes: the 2026-11-30c fp8 gate found 1,891 mismatching
# row-wise cases (every listed one row-wise; K=16 ones too, so the epilogue, not the chain).
# Row-wise calls therefore plan only with an order named below (ROW_WISE_ORDERS: the orders
# benchmarks/probe_rowwise.py tests, as GEMMDesc steps before the one rounding). ROW_WISE_DEFAULT is
# what the 2026-11-30e probe found exact, the 2026-11-30h gate reproduced (1,722 of 1,722) and the
# whole 2026-12-04 gate verified (5,932 row-wise cases identical; benchmarks/results/2026-12-04-gpu):
# it plans by default. BITORDER_FP8_ROWWISE_EPILOGUE="nobias=NAME;bias=NAME" names another order, a
# probe's candidate planned only under BITORDER_UNVERIFIED=1; "none" turns row-wise planning off.
ROW_WISE_DEFAULT = "nobias=(acc*sb)*sa;bias=(acc*sb)*sa+bias"
ROW_WISE_ORDERS = {"acc*(sa*sb)": ("scale",), "(acc*sa)*sb": ("scale_a", "scale_b"),
                   "(acc*sb)*sa": ("scale_b", "scale_a"), "acc*(sa*sb)+bias": ("scale", "bias_acc"),
                   "(acc*sa)*sb+bias": ("scale_a", "scale_b", "bias_acc"),
                   "(acc*sb)*sa+bias": ("scale_b", "scale_a", "bias_acc"),
                   "fma(acc,sa*sb,bias)": ("scale_bias_fma",)}
# Promoting fp8 chains (use_fast_accum=False) load tiles by TMA unless BITORDER_FP8_TMA=0: on
# the H200 (2026-11-30c, the same 41 realistic calls, CUDA graphs, above 5 GFLOP) TMA took them
# from 0.18-0.45x torch._scaled_mm per group to 0.64-0.71x, while pure chains lost with it
# (0.70-0.94x -> 0.64-0.84x); every output byte-identical both ways.
FP8_TMA = os.environ.get("BITORDER_FP8_TMA", "1") != "0"
# BITORDER_FP8_PAIRS=1 (an experiment, off by default; read at import): promoting chains walk two
# intervals a trip with the odd one's add deferred to the next trip, so its wgmmas run while the trip
# adds (kernels_fp8.chain8_tile; the same adds in the same order). Its first form (both chains issued,
# then both added) was 3% slower on the H200 (2026-12-02c); this one is not yet timed.
FP8_PAIRS = os.environ.get("BITORDER_FP8_PAIRS", "") == "1"
# BITORDER_FP8_PERSISTENT=1 (an experiment, off by default; read at import): plain chains on TMA tiles run
# kernels_fp8.chain8_persistent_kernel, one program per SM walking the tiles with the loop nest flattened (the next
# tile's loads overlap this one's epilogue; the fp16 path's persistent kernel gained 0.71-0.98x against 0.52-0.74x
# on M >= 512). The same chain, adds and epilogue per tile. On the H200 (2026-12-03d call 1): torch._scaled_mm's
# bytes (83 of 83) and no faster (0.745x against the default's 0.755x under CUDA graphs above 5 GFLOP), so it stays off.
FP8_PERSISTENT = os.environ.get("BITORDER_FP8_PERSISTENT", "") == "1"
# Promoting chains (use_fast_accum=False) on TMA-aligned e4m3 operands run the warp-specialized Gluon kernel
# (kernels_fp8_gluon.run_ws: a TMA producer warp and two consumer warpgroups that share only the ring's
# mbarriers, each issuing the next interval's chain before adding the last partial) unless BITORDER_FP8_WS=0.
# On the H200 (2026-12-03h call 2, 16 shapes x 4 draws): byte-identical to chain8_kernel on every draw, 0.82x
# torch._scaled_mm above 5 GFLOP where chain8_kernel gave 0.71x.
FP8_WS = os.environ.get("BITORDER_FP8_WS", "1") != "0"
# BITORDER_FP8_WS_TILES (on unless "0"; read at import): run_ws also takes pure chains (use_fast_accum=True,
# promote=0), and both modes take ws_tile's tiles where it names one. Why: on the H200 (2026-12-04 call 4,
# benchmarks/fp8_ws_tiles.py, CUDA graphs) one-wave tiles took the sample's worst shapes from 0.56-0.77x torch to
# 0.77-1.04x (pure) and 0.68-0.80x to 0.89-0.99x (promoting at M = 128), every tile with torch's bytes (426
# comparisons); 2026-12-04b call 3: the persistent 128 x 128 6-stage kernel took large promoting shapes from
# 0.71-0.81x to 0.80-0.91x (294 comparisons identical). Gated: 2026-12-04b calls 2 (one-wave tiles, 17,321 cases)
# and 4 (persistent).
FP8_WS_TILES = os.environ.get("BITORDER_FP8_WS_TILES", "1") != "0"
# Not an option, tried twice: Triton 3.6's warp_specialize on the promoting TMA loop (a producer and two consumer
# warpgroups; its TTGIR and PTX still a fresh dot and one fp32 add per interval) returned other bytes than
# torch._scaled_mm on the H200: 2026-12-02 ("PIPE", every call it planned) and 2026-12-03c call 5 (16 of 33
# promoting calls), at 0.79x against the default's 0.76x. h200-facts has both.


def _pairs(desc, BM, BN, BK, warps, stages, tma=True):
    """(PAIRS, BM, warps, stages) for a chain. A paired trip holds three fp32 tiles in registers
    (acc, the even partial, the odd one in flight): one warpgroup of 64 rows (4 warps) at most, which
    ptxas pipelines on TMA tiles (at 128 rows over 8 warps it serializes the wgmmas, C7515; pointer tiles
    spill at 64 rows, so they stay unpaired); and a stage holds two intervals' tiles, so only as many
    stages as fit about 200 KB of shared memory (sm_90 has 227 KB). Tiles never change the bits."""
    if not (FP8_PAIRS and tma and desc.promotion is not None):
        return False, BM, warps, stages
    BM, warps = min(BM, 64), 4
    return True, BM, warps, max(1, min(stages, 200_000 // (2 * (BM + BN) * BK)))


_SCALE_CODE = {("scale",): 1, ("scale_a", "scale_b"): 2, ("scale_b", "scale_a"): 3, ("scale_bias_fma",): 4}


# The split-K descriptors the split path computes: the profile's fp8 split entry (algo 66, the
# 2026-11-30d survey: 200 of 200 calls on the twin) gives fp32 partials merged in part order in
# fp32, then scale_a * scale_b, then the bias in fp32, one rounding.
SPLIT_EPILOGUES = (("scale", "round"), ("scale", "bias_acc", "round"))
MERGE_BLOCK = 1024


def split_gap(desc: GEMMDesc, scaling: str = "tensor") -> str:
    """Why the fp8 split-K path cannot compute `desc` (a split_k GEMMDesc) for calls with this
    scaling, or "" when it can: one k32 chain per outer part (promotion intervals from the part's
    start), fp32 partials summed sequentially in fp32, epilogue scale (+ bias_acc) + round,
    tensor-wise scales. The plan falls back to torch._scaled_mm with this reason."""
    if scaling != "tensor":
        return "row-wise scales on a split-K answer have no Triton kernel"
    if desc.family != "split_k":
        return f"family {desc.family} has no fp8 Triton kernel"
    if desc.instruction != "wgmma" or desc.instruction_k != 32 or desc.k_tail != "last":
        return "only wgmma k32 chains with the short turn last"
    if len(desc.k_cuts) != 1 or desc.k_parts is not None:
        return "only one level of equal spans (the last part taking the rest)"
    if (desc.partial_dtype, desc.merge_dtype, desc.merge_order) != ("fp32", "fp32", "sequential"):
        return "only fp32 partials merged sequentially in fp32"
    if desc.epilogue not in SPLIT_EPILOGUES:
        return "only the epilogue scale (+ bias_acc) + round"
    if desc.promotion is not None and desc.promotion_anchor == "k0" and desc.k_cuts[0] % desc.promotion:
        # the kernel counts intervals from each part's start: the same as from k = 0 only when
        # every part starts on a multiple of the interval
        return "promotion counted from k = 0 across parts that start off its intervals"
    return ""


def row_wise_epilogue(bias: bool):
    """The row-wise epilogue steps (before "round") for calls with or without a bias: ROW_WISE_DEFAULT
    (gated: 2026-12-04), or, under BITORDER_UNVERIFIED=1 only, another order BITORDER_FP8_ROWWISE_EPILOGUE
    names (a probe's candidate); None (the call falls back) for "none", a name with no kernel, or a named
    order outside BITORDER_UNVERIFIED=1."""
    from ..cublas.profile import candidates_allowed

    spec = os.environ.get("BITORDER_FP8_ROWWISE_EPILOGUE") or ROW_WISE_DEFAULT
    if spec != ROW_WISE_DEFAULT and not candidates_allowed():
        return None
    named = dict(part.split("=", 1) for part in spec.split(";") if "=" in part)
    return ROW_WISE_ORDERS.get(named.get("bias" if bias else "nobias", ""))


def _tensor_wise(scale_a, scale_b) -> bool:
    """One scale each: torch's tensor-wise scaling. Anything else the plan accepted is row-wise,
    even with one row (M = 1: scale_a has one element, scale_b one per column)."""
    return scale_a.numel() == 1 and scale_b.numel() == 1


def _scaling(a, b, scale_a, scale_b) -> str:
    """'tensor' or 'row', as torch's get_joint_scaling decides; a ValueError otherwise."""
    for s, name in ((scale_a, "scale_a"), (scale_b, "scale_b")):
        if not isinstance(s, torch.Tensor) or s.dtype != torch.float32 or s.device != a.device:
            raise ValueError(f"{name} must be a float32 tensor on {a.device}")
    if _tensor_wise(scale_a, scale_b):
        return "tensor"
    M, N = a.shape[0], b.shape[1]
    if (scale_a.shape == (M, 1) and scale_b.shape == (1, N) and scale_a.is_contiguous()
            and scale_b.is_contiguous()):
        return "row"
    raise ValueError(f"scales must be tensor-wise (one element each) or row-wise (scale_a ({M}, 1), scale_b "
                     f"(1, {N}), contiguous); got {tuple(scale_a.shape)} and {tuple(scale_b.shape)}")


def _check(a, b, scale_a, scale_b, bias, out_dtype, devices=("cuda",)):
    """torch._scaled_mm's own input rules on sm_90, as clear errors; returns (scaling, out dtype name).
    (Tests pass devices=("meta",) to check the rules without a GPU.)"""
    for t, name in ((a, "a"), (b, "b")):
        if not isinstance(t, torch.Tensor):
            raise TypeError(f"{name} must be a torch tensor, got {type(t).__name__}")
        if t.device.type not in devices:
            raise ValueError(f"bitorder.scaled_mm runs on CUDA tensors; {name} is on {t.device}")
        if t.dtype not in _FP8:
            raise TypeError(f"{name} must be float8_e4m3fn or float8_e5m2, got {t.dtype}")
        if t.dim() != 2:
            raise ValueError(f"{name} must be 2-D, got {t.dim()}-D")
    if a.dtype == b.dtype == torch.float8_e5m2:
        raise TypeError("two float8_e5m2 operands are not supported (as in torch)")
    if a.shape[1] != b.shape[0]:
        raise ValueError(f"a is {tuple(a.shape)} and b is {tuple(b.shape)}: inner dimensions differ")
    K, N = b.shape
    if K % 16 or N % 16:
        raise ValueError(f"K and N must be multiples of 16 (torch's rule); got K={K}, N={N}")
    if a.stride(1) != 1 or b.stride(0) != 1:
        raise ValueError("a must be row-major and b column-major (b = w.t() of a row-major w), as cuBLASLt needs")
    if out_dtype not in _OUT:
        raise TypeError(f"out_dtype must be torch.bfloat16, float16 or float32 (fp8 outputs are not planned); "
                        f"got {out_dtype}")
    if bias is not None:
        if out_dtype == torch.float32:
            raise ValueError("a bias is not supported with out_dtype float32 (torch rejects it too)")
        if bias.dtype != out_dtype or bias.numel() != N:
            raise ValueError(f"bias must have {N} elements of {out_dtype}; got {bias.numel()} of {bias.dtype}")
    return _scaling(a, b, scale_a, scale_b), _OUT[out_dtype]


@functools.lru_cache(maxsize=65536)
def _describe(query, k: int, bias: bool, fast_accum: bool, trial: bool = False):
    """(cuBLASLt's answer, its GEMMDesc or None); trial (candidates_allowed() at the call) is part
    of the cache key only: ArchProfile.describe reads BITORDER_UNVERIFIED itself, and a plan
    cached before the switch flipped must not answer after it."""
    from ..cublas import lt
    from ..cublas.profile import ArchProfile

    answers = lt.heuristic(query, 1)
    if not answers:
        return None, None
    ans = answers[0].to_dict()
    return ans, ArchProfile.load().describe(ans, k, query.ab_type, bias, fast_accum, out_dtype=query.cd_type)


def lt_query(m: int, n: int, k: int, ab_type: str = "e4m3", out: str = "bf16", bias: bool = False,
             fast_accum: bool = False, scaling: str = "tensor", lda: int | None = None, ldb: int | None = None):
    """The cuBLASLt query torch's scaled_gemm makes for a (m, k) row-major @ b (k, n) column-major
    (lda: b's column stride, ldb: a's row stride; k for dense operands). Built from shapes
    alone, so a CPU can build it; asking it (lt.heuristic) needs the GPU."""
    from ..cublas.lt import LtQuery

    return LtQuery(transa=True, transb=False, m=n, n=m, k=k, lda=k if lda is None else lda,
                   ldb=k if ldb is None else ldb, ldc=n, ab_type=ab_type, cd_type=out, bias=bias,
                   bias_type=out if bias else None, fast_accum=bool(fast_accum),
                   scale_mode="scalar" if scaling == "tensor" else "outer_vec", workspace=1 << 20,
                   scale_ptr=0 if scaling == "tensor" else ROW_SCALE_STANDIN)


def plan(a, b, scale_a, scale_b, bias=None, out_dtype=None, use_fast_accum=False) -> api.Plan:
    """The plan for bitorder.scaled_mm with these arguments: the GEMMDesc and why."""
    out_dtype = out_dtype or a.dtype
    if out_dtype in _FP8:
        return api.Plan("cublas", None, None, "scaled_gemm", "fp8 output (scale_result) is not planned")
    scaling, out = _check(a, b, scale_a, scale_b, bias, out_dtype)
    t0 = time.perf_counter()
    M, K = a.shape
    N = b.shape[1]
    if M == 0 or N == 0 or K == 0:
        return api.Plan("cublas", None, None, "scaled_gemm", "empty problem")
    if a.dtype != b.dtype:
        return api.Plan("cublas", None, None, "scaled_gemm", "mixed fp8 operand types")
    if api.unaligned(a, b, bias):
        return api.Plan("cublas", None, None, "scaled_gemm", "operand address not 16-byte aligned")
    row_steps = row_wise_epilogue(bias is not None) if scaling == "row" else None
    if scaling == "row" and row_steps is None:
        return api.Plan("cublas", None, None, "scaled_gemm", "row-wise scales: cuBLAS's outer-vector epilogue "
                        "is not reproduced yet")
    from ..cublas.profile import candidates_allowed

    q = lt_query(M, N, K, _FP8[a.dtype], out, bias is not None, use_fast_accum, scaling, b.stride(1), a.stride(0))
    try:
        ans, desc = _describe(q, K, bias is not None, bool(use_fast_accum), candidates_allowed())
    except Exception as e:  # noqa: BLE001  (the query itself failing must not fail the user's call)
        return api.Plan("cublas", None, None, "scaled_gemm", f"cuBLASLt query failed ({type(e).__name__})")
    us = (time.perf_counter() - t0) * 1e6
    if ans is None:
        return api.Plan("cublas", None, None, "scaled_gemm", "no heuristic answer", us)
    if desc is None:
        from ..cublas.profile import cublas_defect

        defect = cublas_defect(ans, K, _FP8[a.dtype])
        return api.Plan("cublas", None, ans, "scaled_gemm", f"{defect}; torch's bytes are returned as they are"
                        if defect else f"algo {ans['algo_id']} fp8 answer outside the arch profile's verified entries", us)
    if desc.family != "plain":
        gap = split_gap(desc, scaling)
        if gap:
            return api.Plan("cublas", None, ans, "scaled_gemm", f"fp8 {desc.family}: {gap}", us)
        return api.Plan("triton", desc, ans, "scaled_gemm", "", us)
    if row_steps is not None:    # the probed candidate order in place of the tensor-wise epilogue
        desc = dataclasses.replace(desc, epilogue=row_steps + ("round",))
    return api.Plan("triton", desc, ans, "scaled_gemm", "", us)


def _block(M: int, N: int, desc: GEMMDesc, programs: int, cuda: bool):
    """(BLOCK_M, BLOCK_N, BLOCK_K, warps, stages) for an (M, N) output over `programs` tiles per
    output tile (split parts): the fp16 chains' wave model with 128-deep fp8 tiles (speed only)."""
    BM, BN, _, warps, stages = launch.blocks(M, N, programs, None if cuda else launch.H200_SMS)
    if desc.promotion is not None and BN > 128:
        BN = 128   # a promoting chain holds a partial beside the accumulator: 128x256 spills (ptxas)
    return BM, BN, 128, warps, min(stages, 4)


def _tma(a, b, desc: GEMMDesc, tma) -> bool:
    if tma is None:
        tma = (FP8_TMA and desc.promotion is not None) or launch.TMA
    tma = bool(tma) and launch.tma_aligned(a, b, (a.stride(0), b.stride(1)))
    if tma:
        launch.ensure_allocator()
    return tma


# run_ws tiles (block_n, consumers, stages) ws_tile picks from: 64 * consumers rows each. Promoting tiles stay at
# 128 columns or fewer (a partial beside the accumulator: 64 x 256 would need 256 registers a thread).
WS_PURE_TILES = ((128, 2, 4), (64, 2, 6), (256, 2, 3), (256, 1, 4), (128, 1, 4), (64, 1, 6))
WS_PROMOTING_TILES = ((128, 2, 6), (64, 2, 6))


class WsTile(NamedTuple):
    """A kernels_fp8_gluon.run_ws launch: 64 * consumers x (block_n + extra_n) tiles, a ring of `stages`; persistent:
    one program per SM walking the tiles; maxnreg: the launch's register cap (None: run_ws's default; 168 for one
    consumer lets two programs share an SM, their rings 98 KB each); extra_n: a second column block (16: 144- and
    80-column tiles, as cuBLAS's own tiles need not be powers of two)."""
    block_n: int
    consumers: int
    stages: int
    persistent: bool = False
    maxnreg: Optional[int] = None
    extra_n: int = 0

    def programs_per_sm(self) -> int:
        return 2 if self.consumers == 1 and self.maxnreg == 168 and not self.persistent else 1

    def label(self) -> str:
        """p128x128s6 (persistent, rows x columns, stages), w64x32s8r168 (a program per tile, register cap)."""
        return "{}{}x{}s{}{}".format("p" if self.persistent else "w", 64 * (self.consumers or 1),
                                     self.block_n + self.extra_n, self.stages, f"r{self.maxnreg}" if self.maxnreg else "")


# Fitted cost of a promoting tile on the H200 (benchmarks/fit_ws_tiles.py on the fp8_ws_sweep.py run of
# benchmarks/results/2026-12-04c-gpu/call1, 56 shapes): pairs (WsTile, (us per 128-deep promotion interval, us fixed
# per tile)), a tuple so that ws_tile's memo can key on it. Leaving each shape out of its own fit, the rule it gives
# ran 0.832x torch (geomean) where the one-wave / persistent 128 x 128 rule ran 0.701x and the best tile per shape
# 0.851x. Empty: ws_tile keeps that older rule.
WS_PROMOTING_COST: tuple = (
    (WsTile(128, 2, 6, True, None, 0), (0.3466, 4.254)), (WsTile(64, 2, 6, True, None, 0), (0.2596, 1.625)),
    (WsTile(32, 2, 8, True, None, 0), (0.2092, 0.783)), (WsTile(128, 1, 6, True, None, 0), (0.2506, 1.692)),
    (WsTile(64, 1, 6, True, None, 0), (0.1997, 0.440)), (WsTile(32, 1, 8, True, None, 0), (0.1477, 0.224)),
    (WsTile(64, 1, 6, False, 168, 0), (0.2471, 4.969)), (WsTile(32, 1, 8, False, 168, 0), (0.2446, 3.161)),
    (WsTile(128, 2, 6, True, None, 16), (0.4419, 4.847)), (WsTile(64, 2, 6, True, None, 16), (0.3016, 2.377)),
)


def ws_rounds(M: int, N: int, tile: WsTile, sms: int) -> int:
    """How many tiles the busiest program slot runs: ceil(tiles / (SMs x programs an SM holds))."""
    return triton.cdiv(triton.cdiv(M, 64 * tile.consumers) * triton.cdiv(N, tile.block_n + tile.extra_n),
                       sms * tile.programs_per_sm())


def ws_cost_tile(M: int, N: int, K: int, sms: int, costs: dict):
    """The WsTile of least predicted time for a promoting chain: ws_rounds x (ceil(K / 128) intervals at the tile's
    interval cost + its fixed cost); two consumers only where M > 64. costs: {WsTile: (interval, fixed)} or its
    items. None where costs names no tile. Speed only (every tile computes the same chain per element)."""
    best = None
    for tile, (interval, fixed) in sorted(dict(costs).items(), key=lambda kv: tuple(x or 0 for x in kv[0])):
        tile = WsTile(*tile)
        if tile.consumers == 2 and M <= 64:
            continue
        t = ws_rounds(M, N, tile, sms) * (triton.cdiv(K, 128) * interval + fixed)
        if best is None or t < best[0]:
            best = (t, tile)
    return best[1] if best else None


def ws_tile(M: int, N: int, promoting: bool, sms: int, K: int = 0):
    """_ws_tile's answer, memoised: on the CPU the rule took 21 us a call and the cost rule 103, host time every
    fp8 call paid."""
    return _ws_tile(M, N, promoting, sms, K if promoting and WS_PROMOTING_COST else 0, WS_PROMOTING_COST)


@functools.lru_cache(maxsize=4096)
def _ws_tile(M: int, N: int, promoting: bool, sms: int, K: int, costs: tuple):
    """The WsTile for kernels_fp8_gluon.run_ws, or None (the default kernel and tile): the tile whose grid is one
    wave filling at least 3/4 of the SMs (the most programs; two consumers before one); for promoting chains with
    M > 64 and no such tile, 128 x 128 with 6 stages, persistent where its grid is a wave or more (2026-12-04b
    call 3: 0.80-0.91x torch where one program per tile gave 0.71-0.81x).
    Promoting chains with M <= 64 keep the default (persistent tiles measured slower there). With a fitted
    WS_PROMOTING_COST and K given, promoting chains take ws_cost_tile's tile instead. Speed only: every tile
    computes the same chain per element (FP8_WS_TILES)."""
    if promoting and K and costs:
        return ws_cost_tile(M, N, K, sms, costs)
    if promoting and M <= 64:
        return None
    fits = [(triton.cdiv(M, 64 * c) * triton.cdiv(N, bn), c, WsTile(bn, c, st))
            for bn, c, st in (WS_PROMOTING_TILES if promoting else WS_PURE_TILES) if c == 1 or M > 64]
    fits = [f for f in fits if f[0] <= sms]
    if fits:
        programs, _, tile = max(fits, key=lambda f: f[:2])
        if 4 * programs >= 3 * sms:
            return tile
    if promoting:
        return WsTile(128, 2, 6, triton.cdiv(M, 128) * triton.cdiv(N, 128) >= sms)
    return None


def _ws_takes(a, b, bias, out_dtype, block) -> bool:
    """What kernels_fp8_gluon.run_ws accepts of a call, whatever the chain: e4m3 CUDA operands, no block asked
    for, a bias (if any) of the output type, an output type it writes."""
    return (a.is_cuda and block is None and a.dtype == b.dtype == torch.float8_e4m3fn
            and (bias is None or bias.dtype == out_dtype) and out_dtype in _OUT)


def _ws_pure(a, b, desc: GEMMDesc, bias, out_dtype, block) -> bool:
    """Whether run takes run_ws for a pure chain (FP8_WS_TILES): what _ws asks of a promoting one, on operands
    TMA can load, plain (unsplit) descriptors only."""
    return (FP8_WS_TILES and desc.promotion is None and desc.family == "plain" and _ws_takes(a, b, bias, out_dtype, block)
            and launch.tma_aligned(a, b, (a.stride(0), b.stride(1))))


def _ws(a, b, desc: GEMMDesc, bias, out_dtype, block, tma) -> bool:
    """Whether run takes the Gluon kernel (FP8_WS): a promoting chain on TMA tiles, e4m3 operands, CUDA, no
    block asked for, a bias (if any) of the output type: what kernels_fp8_gluon.run_ws accepts."""
    return FP8_WS and tma and desc.promotion in (32, 64, 128) and _ws_takes(a, b, bias, out_dtype, block)


def run_split(a, b, scale_a, scale_b, desc: GEMMDesc, bias=None, out_dtype=torch.bfloat16, block=None, tma=None):
    """The bytes a split_k `desc` prescribes for a @ b with tensor-wise fp8 scales (split_gap(desc)
    must be ""): part p's wgmma k32 chain over [p * span, min((p + 1) * span, K)) from zero (with a
    promotion, a fresh chain every desc.promotion elements from the part's start, added in with a
    round-to-nearest fp32 add), stored as an unscaled fp32 partial; then, per element,
    ((p0 + p1) + ...) in fp32, times fp32(scale_a * scale_b), plus the bias in fp32 (bias_acc),
    rounded once to out_dtype. block and tma are speed knobs (run's)."""
    gap = split_gap(desc, "tensor" if _tensor_wise(scale_a, scale_b) else "row")
    if gap:
        raise NotImplementedError(f"no Triton kernel for {desc}: {gap}")
    if (bias is not None) != ("bias_acc" in desc.epilogue):
        raise ValueError("a bias must be given exactly when the descriptor's epilogue adds one")
    M, K = a.shape
    N = b.shape[1]
    parts, span = desc.parts, desc.k_cuts[0]
    BM, BN, BK, warps, stages = block or _block(M, N, desc, parts, a.is_cuda)
    if desc.promotion is not None:
        BK = desc.promotion   # one dot per promotion interval, from each part's start
    tma = _tma(a, b, desc, tma)
    pairs, BM, warps, stages = _pairs(desc, BM, BN, BK, warps, stages, tma)
    ws = torch.empty((parts, M, N), dtype=torch.float32, device=a.device)
    part8_kernel[(triton.cdiv(M, BM) * triton.cdiv(N, BN), parts)](
        a, b, ws, M, N, K, span, a.stride(0), b.stride(1), N, M * N, A_ROW=True, B_ROW=False,
        PROMOTE=desc.promotion or 0, BLOCK_M=BM, BLOCK_N=BN, BLOCK_K=BK, TMA=tma,
        PAIRS=pairs, num_warps=warps, num_stages=stages)
    out = torch.empty((M, N), dtype=out_dtype, device=a.device)
    n = M * N
    # enable_fp_fusion=False: every add and multiply rounds on its own (merge8_kernel's docstring)
    merge8_kernel[(triton.cdiv(n, MERGE_BLOCK),)](
        ws, out, bias if bias is not None else out, scale_a, scale_b, n, parts, n, N,
        HAS_BIAS=bias is not None, BLOCK=MERGE_BLOCK, num_warps=4, enable_fp_fusion=False)
    return out


def run(a, b, scale_a, scale_b, desc: GEMMDesc, bias=None, out_dtype=torch.bfloat16, block=None, tma=None):
    """The bytes `desc` prescribes for a @ b with fp8 scales (plain wgmma k32 chains; split_k
    descriptors go to run_split). block and tma (default: TMA tiles for promoting chains, FP8_TMA,
    where the operands are 16-byte aligned) are speed knobs. Promoting chains on TMA tiles run the
    Gluon kernel (kernels_fp8_gluon.run_ws, FP8_WS) where _ws allows: the same chain per element."""
    if desc.family == "split_k":
        return run_split(a, b, scale_a, scale_b, desc, bias, out_dtype, block, tma)
    scale = tuple(s for s in desc.epilogue if s.startswith("scale"))
    if desc.family != "plain" or desc.instruction_k != 32 or scale not in _SCALE_CODE:
        raise NotImplementedError(f"no Triton kernel for {desc}")
    M, K = a.shape
    N = b.shape[1]
    out = torch.empty((M, N), dtype=out_dtype, device=a.device)
    BM, BN, BK, warps, stages = block or _block(M, N, desc, 1, a.is_cuda)
    if desc.promotion is not None:
        BK = desc.promotion   # one dot per promotion interval: Triton promotes once per dot
    tma = _tma(a, b, desc, tma)
    promoting = _ws(a, b, desc, bias, out_dtype, block, tma)
    if promoting or _ws_pure(a, b, desc, bias, out_dtype, block):
        from .kernels_fp8_gluon import run_ws

        tile = ws_tile(M, N, promoting, launch._sm_count(), K) if FP8_WS_TILES else None
        if promoting or tile:
            tile = tile or WsTile(128, None, 4)
            return run_ws(a, b, scale_a, scale_b, bias, out_dtype, block_n=tile.block_n, stages=tile.stages,
                          promote=desc.promotion or 0, scale_code=_SCALE_CODE[scale], overlap=True,
                          consumers=tile.consumers, persistent=tile.persistent, maxnreg=tile.maxnreg,
                          extra_n=tile.extra_n)
    pairs, BM, warps, stages = _pairs(desc, BM, BN, BK, warps, stages, tma)
    if FP8_PERSISTENT and tma and not pairs and a.is_cuda:
        programs = min(triton.cdiv(M, BM) * triton.cdiv(N, BN), launch._sm_count())
        chain8_persistent_kernel[(programs,)](
            a, b, out, bias if bias is not None else out, scale_a, scale_b, M, N, K, a.stride(0), b.stride(1), N,
            PROMOTE=desc.promotion or 0, SCALE=_SCALE_CODE[scale], ROWWISE=not _tensor_wise(scale_a, scale_b),
            HAS_BIAS=bias is not None, BLOCK_M=BM, BLOCK_N=BN, BLOCK_K=BK, PROGRAMS=programs,
            num_warps=warps, num_stages=stages)
        return out
    chain8_kernel[(triton.cdiv(M, BM) * triton.cdiv(N, BN),)](
        a, b, out, bias if bias is not None else out, scale_a, scale_b, M, N, K, a.stride(0), b.stride(1), N,
        A_ROW=True, B_ROW=False, PROMOTE=desc.promotion or 0, SCALE=_SCALE_CODE[scale],
        ROWWISE=not _tensor_wise(scale_a, scale_b), HAS_BIAS=bias is not None, BLOCK_M=BM, BLOCK_N=BN, BLOCK_K=BK,
        TMA=tma, PAIRS=pairs,
        num_warps=warps, num_stages=stages)
    return out


def scaled_mm(a, b, scale_a, scale_b, bias=None, out_dtype=None, use_fast_accum=False):
    """torch._scaled_mm(a, b, scale_a, scale_b, bias, out_dtype=..., use_fast_accum=...)'s exact
    bytes on the H200 with cuBLAS 13.1: a (M, K) row-major and b (K, N) column-major fp8,
    tensor-wise or row-wise fp32 scales, out_dtype bf16, fp16 or fp32. Calls whose cuBLASLt
    answer the arch profile has not verified run torch._scaled_mm itself (counted)."""
    out_dtype = out_dtype or a.dtype
    p = plan(a, b, scale_a, scale_b, bias, out_dtype, use_fast_accum)
    api._count(p)
    if p.path == "cublas":
        return torch._scaled_mm(a, b, scale_a, scale_b, bias=bias, out_dtype=out_dtype,
                                use_fast_accum=use_fast_accum)
    return run(a, b, scale_a, scale_b, p.desc, bias, out_dtype)
