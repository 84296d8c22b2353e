"""cuBLAS's run-time split (segment-K: algorithms 41 and 42 with split_k -1) from bitorder's chain kernel.

Bits contract: for a call that bitorder.cublas.segment_k plans (a SegmentKPlan), `run(a, b, plan)` returns,
output by output, the bytes that reading's CPU twin (`bitorder.cublas.segment_k.matmul`) returns: outside
the left-over tiles the plain k16 chain over all of K, rounded once; inside them each segment's fp32 chain
from zero, the segments summed as `merge_tree` says (fp32 adds, round to nearest), rounded once. Whether
those are cuBLAS's bytes is the reading's question, not this module's: the planner routes here for the kernels
that `bitorder.cublas.segment_k.KERNELS` marks verified (both since 2026-12-02f: 48 fresh H200 calls, 201M
outputs identical to torch's, benchmarks/results/2026-12-02f-gpu/call1).

Every piece is a chain the GEMM family already computes (launch.chain over a K slice: a segment starts at a
multiple of 64, so its groups of 16 are the plain chain's) and torch's own fp32 adds, which round to
nearest like the twin's add_rn. Speed is not the point: these calls are about 1 in 45,000 of the gate.
"""
from __future__ import annotations

import torch

from ..cublas.segment_k import SegmentKPlan, merge_parts
from . import launch


def split_tiles(p: SegmentKPlan) -> torch.Tensor:
    """(nt, mt) bool: whether torch's row tile i, column tile j is a left-over (split) tile."""
    ni = torch.arange(p.nt)[:, None]
    mi = torch.arange(p.mt)[None, :]
    flip = (ni % 2 == 1) & (p.order == "serpentine")
    return ni * p.mt + torch.where(flip, p.mt - 1 - mi, mi) >= p.first_split


def split_mask(p: SegmentKPlan, m: int, n: int) -> torch.Tensor:
    """(m, n) bool over torch's output: the outputs a left-over tile writes."""
    t = p.tile
    return split_tiles(p).repeat_interleave(t, 0)[:m].repeat_interleave(t, 1)[:, :n]


def accumulate(a: torch.Tensor, b: torch.Tensor, p: SegmentKPlan) -> torch.Tensor:
    """The fp32 sums the kernel hands its epilogue for a (M, K) @ b (K, N) under plan p: bit for bit
    segment_k.accumulate's (the plain chain outside the left-over tiles, the merged segments inside)."""
    if a.dim() != 2 or b.dim() != 2 or a.shape[1] != b.shape[0] or a.shape[1] != p.k:
        raise ValueError(f"segment-K runs a 2-D (M, {p.k}) @ ({p.k}, N) product; got {tuple(a.shape)} @ {tuple(b.shape)}")
    m, n = a.shape[0], b.shape[1]
    if p.nt != -(-m // p.tile) or p.mt != -(-n // p.tile):
        raise ValueError(f"the plan's {p.nt}x{p.mt} tiles of {p.tile} do not cover a {m}x{n} output")
    # every tile's plain chain, unrounded; pointer tiles (tma=False) for every chain here: routes never move
    # bits, and these rare calls take the most exercised one
    acc = launch.run(a, b, p.plain, out_dtype=torch.float32, tma=False)
    tiles = split_tiles(p)
    rows = tiles.any(dim=1).nonzero()
    if rows.numel() == 0:
        return acc
    r0 = int(rows[0]) * p.tile                 # left-over tiles come last in the launch order: a band of rows
    band = a[r0:]
    parts = []
    for s, e in zip(p.bounds, p.bounds[1:]):
        part = torch.empty((m - r0, n), dtype=torch.float32, device=a.device)
        launch.chain(band[:, s:e], b[s:e], part, span=e - s, tma=False)    # a chain from zero over the segment
        parts.append(part)
    merged = merge_parts(parts, p.merge, add=torch.add)    # torch's fp32 adds, in the twin's tree
    acc[r0:] = torch.where(split_mask(p, m, n)[r0:].to(acc.device), merged, acc[r0:])
    return acc


def run(a: torch.Tensor, b: torch.Tensor, p: SegmentKPlan) -> torch.Tensor:
    """a (M, K) @ b (K, N), fp16 or bf16: segment_k.matmul's bytes under plan p (accumulate, then one
    round to nearest to a's type by the kernels' own conversion)."""
    return launch.rounded(accumulate(a, b, p), a.dtype)
