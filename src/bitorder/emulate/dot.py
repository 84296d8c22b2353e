"""The CPU twin of cuBLAS's dot path (algorithm 14: dot_kernel<float, 128, 0> + reduce_1Block_kernel<float, 128, 7>).

torch.matmul of a 1 x K row and a K x 1 column (and F.linear with one output and a bias, which
torch runs as beta = 1 over a copy of the bias) runs it on the H200. The bits contract of one
call is a `DotOrder`, read from designed experiments and seeded draws (2026-12-01 probes,
benchmarks/results/2026-12-01-simt-probe):
  1. `grid` blocks of 128 threads (the heuristic answer's split_k: 496, 528 from K ~ 500,000,
     128 for some calls) stride over K in pairs: pair q = (2q, 2q + 1) belongs to thread
     q mod (grid * 128), steps in increasing q. Each thread keeps two fp32 accumulators from +0,
     x for the pair's first element and y for its second, each one fma.rn.f32 chain; then x + y.
  2. A block folds its 128 threads' values as a shuffle butterfly "down" (t takes t + 64, then
     t + 32, ..., t + 1): its partial.
  3. reduce_1Block: thread t (of 128) adds partials t, t + 128, t + 256, ... in order from +0;
     then t takes t + 64, then t takes t + 32 (32 values left); then lanes 0..3 each add the
     values l, l + 4, ..., l + 28 in order (from the first), and lane 0 adds lanes 1, 2, 3 in turn.
  4. The epilogue: the bias (beta = 1) added in fp32, one rounding to the output type.
Every add is add.rn.f32; fp16 and bf16 products are exact in fp32.

A vector strided along K (b row-major with M = 1, a transposed with N = 1: cuBLAS's incx or incy
> 1) is not read in pairs: element i belongs to thread i mod (grid * 128), steps in increasing i,
one fp32 fma chain per thread (`vec=1`); blocks, block fold and reduce_1Block as above. Read from
the +L/-L/r walks of 54 strided calls of the 2026-12-01c survey (a block spans 128 elements where
contiguous calls span 256) and checked against cuBLAS on the H200 by benchmarks/dot_check.py.

Measured: fp16 and bf16, K 3 .. 1,048,576 (grids 496, 528, 128), designed experiments at 18 K and
seeded draws (narrow, wide, cancelling) at 33 K, mm and F.linear with a bias. The x / y split
shows past one step per thread (K >= 126,977): in fp16's draws, and for both dtypes in
benchmarks/dot_check.py's designed rows (+L, -L in one pair, r in the next step's x or y: cuBLAS
gives 0, one chain would give r). The Triton kernels matched cuBLAS on 6,600 calls (2026-12-01).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .gemm import to_format
from .simt import _add, _fma, schedule

THREADS = 128


@dataclass(frozen=True)
class DotOrder:
    """Which products a dot call adds in which order (module docstring: the contract)."""

    grid: int
    split_xy: bool = True          # two accumulators per thread (pair elements apart), else one chain
    vec: int = 2                   # elements per thread and step: 2 (pairs, contiguous) or 1 (strided)

    def __post_init__(self):
        if self.grid < 1:
            raise ValueError(f"a dot needs a grid of at least one block; got {self.grid}")
        if self.vec not in (1, 2):
            raise ValueError(f"a dot thread reads 1 or 2 elements a step; got vec={self.vec}")

    def __str__(self):
        if self.vec == 1:
            return f"DotOrder(grid={self.grid}x{THREADS} single elements, one chain)"
        return f"DotOrder(grid={self.grid}x{THREADS} pairs, {'x/y accumulators' if self.split_xy else 'one chain'})"


def _chains(values: np.ndarray, lanes: int) -> np.ndarray:
    """Lane l adds values l, l + lanes, l + 2 lanes, ... in order (from +0): (lanes,) fp32."""
    out = np.zeros(lanes, np.float32)
    for g in range(0, len(values), lanes):
        piece = values[g:g + lanes]
        out[:len(piece)] = _add(out[:len(piece)], piece)
    return out


def accumulate(a, b, order: DotOrder) -> np.float32:
    """The fp32 value the dot hands to its epilogue for float64 vectors a, b (K,) of fp16/bf16 values."""
    a, b = np.asarray(a, np.float64).ravel(), np.asarray(b, np.float64).ravel()
    K, P, vec = len(a), order.grid * THREADS, order.vec
    prod = a * b                                   # exact: fp16 / bf16 products fit fp32
    i = np.arange(K)
    q = i // vec
    thread, step, half = q % P, q // P, i % vec
    acc = np.zeros((2, P), np.float32)
    for s in range(int(step.max()) + 1 if K else 0):
        for h in range(vec):
            sel = np.flatnonzero((step == s) & (half == h))
            row = h if order.split_xy else 0
            acc[row, thread[sel]] = _fma(prod[sel], acc[row, thread[sel]])
    total = _add(acc[0], acc[1])                   # acc[1] is +0 without the split, acc[0] never -0: exact
    block = total.reshape(order.grid, THREADS)
    cols = [block[:, t] for t in range(THREADS)]
    for dst, src in schedule("down", THREADS):
        cols[dst] = _add(cols[dst], cols[src])
    vals = _chains(cols[0], THREADS)
    vals = _add(vals[:64], vals[64:])
    vals = _add(vals[:32], vals[32:])
    vals = _chains(vals, 4)
    out = vals[0]
    for lane in (1, 2, 3):
        out = _add(out, vals[lane])
    return np.float32(out)


def matmul(a, b, order: DotOrder, bias=None, out_dtype=None) -> np.ndarray:
    """The H200's bytes for a (1, K) @ b (K, 1) (+ bias (1,), beta = 1) run as cuBLAS's dot under
    `order`: a (1, 1) array of out_dtype (default a's type: fp16 or ml_dtypes bf16)."""
    a, b = np.asarray(a), np.asarray(b)
    if a.size != b.size or a.ndim != 2 or b.ndim != 2 or a.shape[0] != 1 or b.shape[1] != 1:
        raise ValueError(f"a dot takes a (1, K) @ b (K, 1); got {a.shape} @ {b.shape}")
    name = out_dtype or ("fp16" if a.dtype == np.float16 else "bf16")
    acc = accumulate(a.astype(np.float64), b.astype(np.float64), order)
    if bias is not None:
        acc = _add(np.float32(acc), np.asarray(bias, np.float64).astype(np.float32).reshape(()))
    return to_format(np.array([[acc]], np.float32), name)
