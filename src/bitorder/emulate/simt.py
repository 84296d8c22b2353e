"""The CPU twin of cuBLAS's SIMT gemv kernels (algorithm 13): scalar fp32 chains, a lane fold, a merge.

The bits contract of one gemv call is a `GemvOrder`. For every output element:
  1. K is cut into parts of `span` elements (None: one part); the last part takes the rest.
     A split launch writes each part's fp32 result to a workspace and a second kernel
     (cublasLt::splitKreduce_kernel) merges them (step 4).
  2. Inside a part, `lanes` threads share the element. Local index u (0 at the part's start)
     belongs to chunk u // chunk, and chunk q to lane q % lanes (round robin): chunk == 1 is the
     lane-strided layout, chunk >= ceil(part / lanes) the contiguous one (chunk=None means
     exactly ceil(span / lanes), or min(cap, ceil(span / lanes)) with a cap: contiguous slices
     up to `cap` elements, then round robin, what the gemvx kernels that load 64 at a time do;
     span is K when there is one part, and the shorter last part keeps the span's chunk).
     Each lane folds its elements in increasing K into one fp32 accumulator started at +0: product "fma" is fma.rn.f32(a, b, acc) (one rounding),
     "mul_add" is add.rn(mul.rn(a, b), acc) (two). With `block`, the chain restarts at +0 every
     `block` local indices and each block's total is added (add.rn.f32, in K order) to the lane's
     total, what gemv2T_kernel_val does past 512 elements (2026-11-30i probe, records i4-i9); with
     block_in_chunk the blocks count from each chunk's start (gemmSN_NN, 2026-12-01 probe).
     fp16 and bf16 products are exact in fp32
     (11 + 11 and 8 + 8 significant bits), so the two differ only where a product leaves fp32's
     range: the survey's draws cannot tell them apart.
  3. The lanes' accumulators meet in `fold`, every combine one add.rn.f32:
       "down": shuffle butterfly, offsets P/2, ..., 2, 1 with P the power of two from lanes up
               (lane t takes t + o where t + o < lanes: gemvNSP's 20, 24, 26 or 12 lanes, 2026-12-01e);
       "up":   offsets 1, 2, ..., lanes/2 (neighbours first);
       "seq":  lane 0 + lane 1, then + lane 2, ... (one thread reads shared memory in order).
  4. The parts' fp32 results meet in `merge` ("sequential": K order; "tree": neighbours
     first), each add rounded to fp32.
  5. The epilogue: with a bias (torch's F.linear with N == 1 copies the bias into C and calls
     gemv with beta = 1), "acc" adds it in fp32 before the one rounding to the output type,
     "out" adds it to the rounded output and rounds again. Without one: one rounding (RN).

Values travel as float64 holding operand values; accumulators are float32 arrays. Two equal
orders owe each other the same bits. What the survey's H200 records settle of these fields,
kernel by kernel, is in benchmarks/results/2026-11-30b-gemv-fit/README.md.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Optional

import numpy as np

from .gemm import round_to, to_format

FOLDS = ("down", "up", "seq")
MERGES = ("sequential", "tree")
PRODUCTS = ("fma", "mul_add")
BIASES = ("acc", "out")


@dataclass(frozen=True)
class GemvOrder:
    """Which K indices a gemv sums together, and in which order (module docstring: the contract)."""

    lanes: int = 1
    chunk: Optional[int] = None
    fold: str = "down"
    span: Optional[int] = None
    merge: str = "sequential"
    product: str = "fma"
    bias: str = "acc"
    cap: Optional[int] = None
    block: Optional[int] = None
    block_in_chunk: bool = False   # blocks counted from each chunk's start (gemmSN NN), not the part's

    def __post_init__(self):
        ok = (self.lanes >= 1 and (self.fold in ("seq", "down") or self.lanes & (self.lanes - 1) == 0)
              and (self.chunk is None or self.chunk >= 1) and (self.span is None or self.span >= 1)
              and (self.cap is None or (self.cap >= 1 and self.chunk is None))
              and (self.block is None or self.block >= 1)
              and self.fold in FOLDS and self.merge in MERGES and self.product in PRODUCTS and self.bias in BIASES)
        if not ok:
            raise ValueError(f"inconsistent GemvOrder: {self}")

    def replace(self, **changes) -> "GemvOrder":
        return dataclasses.replace(self, **changes)

    def parts(self, k: int) -> list:
        """(start, stop) of each part, in K order."""
        span = self.span or k
        return [(s, min(s + span, k)) for s in range(0, k, span)]

    def chunk_of(self, n: int) -> int:
        """The chunk length in a part of n elements. A contiguous layout sizes its chunk from the
        span (the nominal part), so a shorter last part keeps its siblings' chunk: option 56's
        split records (2026-11-30i: a last part of 126 cut 64 + 62) and option 92's split call
        K = 23597 / 16 (2026-11-30j: chunks of 47 in the last part of 1472, not 46)."""
        if self.chunk:
            return self.chunk
        c = -(-(self.span or n) // self.lanes)
        return c if self.cap is None else max(1, min(self.cap, c))

    def block_of(self, u, n: int):
        """The block id of local indices u in a part of n elements (order.block set): u // block,
        or with block_in_chunk the (chunk, block within it) pair folded into one integer."""
        u = np.asarray(u)
        if not self.block_in_chunk:
            return u // self.block
        c = self.chunk_of(n)
        return (u // c) * (-(-c // self.block)) + (u % c) // self.block

    def lane_of(self, n: int) -> np.ndarray:
        """The lane of each local index 0..n-1 of a part of n elements."""
        return (np.arange(n) // self.chunk_of(n)) % self.lanes

    def __str__(self):
        span = "" if self.span is None else f" span={self.span} merge={self.merge}"
        chunk = f"chunk={self.chunk}" if self.chunk else "contiguous" if self.cap is None else f"contiguous cap={self.cap}"
        block = "" if self.block is None else f" block={self.block}{' in chunk' if self.block_in_chunk else ''}"
        return f"GemvOrder(lanes={self.lanes} {chunk}{block} fold={self.fold}{span} {self.product} bias={self.bias})"


def schedule(fold: str, n: int) -> list:
    """The combines (dst, src) of a fold over n values, in order: values[dst] += values[src]."""
    if n == 1:
        return []
    if fold == "seq" or fold == "sequential":
        return [(0, t) for t in range(1, n)]
    out = []
    if fold == "down":      # over n padded to a power of two: a lane past n holds nothing to add
        o = 1 << (n - 1).bit_length() - 1
        while o >= 1:
            out += [(t, t + o) for t in range(o) if t + o < n]
            o //= 2
        return out
    o = 1                                    # "up" and "tree": neighbours first, an odd one carried
    while o < n:
        out += [(t, t + o) for t in range(0, n, 2 * o) if t + o < n]
        o *= 2
    return out


def _fma(p64: np.ndarray, acc: np.ndarray) -> np.ndarray:
    """fp32(p + acc) rounded once, p exact in float64 (round to odd in float64, then to nearest)."""
    c = acc.astype(np.float64)
    with np.errstate(invalid="ignore", over="ignore"):
        s = p64 + c
        bb = s - p64
        err = (p64 - (s - bb)) + (c - bb)
        fix = (err != 0) & ((s.view(np.int64) & 1) == 0) & np.isfinite(s)
        s = np.where(fix, np.nextafter(s, np.where(err > 0, np.inf, -np.inf)), s)
        return s.astype(np.float32)


def _add(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    with np.errstate(invalid="ignore", over="ignore"):
        return (x + y).astype(np.float32)


def _fold(values: list, fold: str) -> np.ndarray:
    v = list(values)
    for dst, src in schedule(fold, len(v)):
        v[dst] = _add(v[dst], v[src])
    return v[0]


def _part(a: np.ndarray, b: np.ndarray, order: GemvOrder, start: int, stop: int) -> np.ndarray:
    """One part's fp32 result (R, C): every lane's chain, then the lane fold."""
    lane = order.lane_of(stop - start)
    idx = [start + np.flatnonzero(lane == t) for t in range(order.lanes)]
    steps = max(len(i) for i in idx)
    R, C = a.shape[0], b.shape[1]
    acc = np.zeros((order.lanes, R, C), np.float32)
    total = np.zeros((order.lanes, R, C), np.float32)
    for j in range(steps):
        live = [t for t in range(order.lanes) if j < len(idx[t])]
        ks = np.array([idx[t][j] for t in live])
        if order.block and j:                # a lane whose element opens a new block banks its chain
            n = stop - start
            new = [t for t in live if order.block_of(idx[t][j] - start, n) != order.block_of(idx[t][j - 1] - start, n)]
            total[new] = _add(total[new], acc[new])
            acc[new] = 0
        p = a[:, ks].T[:, :, None] * b[ks, :][:, None, :]          # (lanes, R, C), exact
        if order.product == "mul_add":
            p = p.astype(np.float32).astype(np.float64)            # mul.rn.f32 first
        acc[live] = _fma(p, acc[live])
    if order.block:
        acc = _add(total, acc)               # the last block (total + 0 = total where it had none)
    return _fold([acc[t] for t in range(order.lanes)], order.fold)


def accumulate(a, b, order: GemvOrder) -> np.ndarray:
    """The fp32 value (R, C) the gemv hands to its epilogue, for float64 operand values a (R, K) @ b (K, C)."""
    a = np.asarray(a, np.float64)
    b = np.asarray(b, np.float64)
    parts = [_part(a, b, order, s, e) for s, e in order.parts(a.shape[1])]
    return _fold(parts, order.merge)


def epilogue(acc: np.ndarray, order: GemvOrder, out_dtype: str, bias=None) -> np.ndarray:
    """Round the fp32 result to out_dtype once, with the bias (beta = 1) where the order puts it."""
    if bias is None:                     # to_format rounds once (round to nearest even)
        return to_format(acc, out_dtype)
    bias32 = np.asarray(bias, np.float64).astype(np.float32).reshape(1, -1)
    if order.bias == "acc":
        return to_format(_add(acc, bias32), out_dtype)
    return to_format(_add(round_to(acc, out_dtype), bias32), out_dtype)


def matmul(a, b, order: GemvOrder, bias=None, out_dtype: Optional[str] = None) -> np.ndarray:
    """The H200's bytes for the gemv call a (M, K) @ b (K, N) (+ bias (N,)) runs under `order`.

    a, b: numpy arrays of fp16 or ml_dtypes bf16; returns (M, N) of out_dtype (default: a's type)."""
    a, b = np.asarray(a), np.asarray(b)
    name = out_dtype or ("fp16" if a.dtype == np.float16 else "bf16")
    return epilogue(accumulate(a.astype(np.float64), b.astype(np.float64), order), order, name, bias)


# -- the +L/-L/r walks, read off the order without arithmetic ------------------------------------

def _meets_r(fold: str, n: int, r: int) -> np.ndarray:
    """(n, n) booleans: does the first combine of the fold that holds both i and j also hold r?"""
    member = np.eye(n, dtype=bool)              # member[v, i]: value v holds leaf i
    out = np.zeros((n, n), bool)
    for dst, src in schedule(fold, n):
        new = np.outer(member[dst], member[src])
        hit = member[dst, r] or member[src, r]
        out |= (new | new.T) & hit
        member[dst] |= member[src]
    return out


def walk_codes(order: GemvOrder, k: int, positions) -> np.ndarray:
    """The walk codes (1: r survived, 0: the output is zero) of the pair +L at m, -L at m + 1 with
    r at k = 0, for each position m: 0 exactly when r joins the pair's first common node before or
    as the pair meets (r is lost against an uncancelled L), which only the order decides.
    tests/emulate/test_simt.py checks it against walks run through accumulate()."""
    m = np.asarray(positions, np.int64)
    parts = order.parts(k)
    starts = np.array([s for s, _ in parts])

    chunks = np.array([order.chunk_of(e - s) for s, e in parts])

    def where(x):
        p = np.searchsorted(starts, x, side="right") - 1
        return p, ((x - starts[p]) // chunks[p]) % order.lanes

    p1, l1 = where(m)
    p2, l2 = where(m + 1)
    same_lane = (p1 == p2) & (l1 == l2)
    lane_meet = _meets_r(order.fold, order.lanes, 0)
    part_meet = _meets_r(order.merge, len(parts), 0)
    in_r_part = p1 == 0
    # on r's lane the pair meets with r unless both sit in one later block (a chain restarted at +0)
    lens = np.array([e - s for s, e in parts])
    b1 = np.array([order.block_of(x - starts[p], lens[p]) for x, p in zip(m, p1)]) if order.block else 0
    b2 = np.array([order.block_of(x + 1 - starts[p], lens[p]) for x, p in zip(m, p2)]) if order.block else 0
    with_r = (b1 == 0) | (b1 != b2)
    lost = np.where(p1 != p2, part_meet[p1, p2],
                    np.where(same_lane, in_r_part & (l1 == 0) & with_r, in_r_part & lane_meet[l1, l2]))
    return np.where(lost, 0, 1)
