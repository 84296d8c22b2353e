"""The prober's numerical instrument: +L, -L and r placed on an otherwise empty K axis.

Paper section 4. A black box is any function that takes operand rows (R, K) and
returns the R outputs of y = rows @ ones(K); it may be cuBLAS on a GPU or a
simulated GEMM with a known GEMMDesc. Where r lands in the output says which
accumulator it shared with the pair:

* r_small (2^-17 beside L = 2^10) is lost in any accumulator that also holds L,
  even inside one tensor-core step (truncated below 2^(Emax-25)); it survives only
  when the pair cancels in an accumulator of its own, before the merge meets r.
  A walk of the pair reads the part boundaries (k_cuts).
* r_edge (2^-15, exactly at the step's truncation edge) survives inside one step
  and in a chain where the pair cancels within one step, and is lost where the
  pair straddles two steps. A walk reads the instruction groups.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np

L_VALUE = 1024.0
R_SMALL = 2.0 ** -17
R_EDGE = 2.0 ** -15

Box = Callable[[np.ndarray], np.ndarray]  # rows (R, K) float64 -> outputs (R,) float64


@dataclass(frozen=True)
class Walk:
    """One walk's answer: for each position m of the pair (m, m+1), the output code."""

    r: float
    positions: tuple
    codes: tuple  # 1: r survived, 0: output zero, 2: anything else

    def survived(self) -> list:
        return [m for m, c in zip(self.positions, self.codes) if c == 1]

    def lost(self) -> list:
        return [m for m, c in zip(self.positions, self.codes) if c == 0]

    def runs(self) -> list:
        """Run-length form [[code, first position, last position], ...] for compact storage."""
        out = []
        for m, c in zip(self.positions, self.codes):
            if out and out[-1][0] == c:
                out[-1][2] = m
            else:
                out.append([c, m, m])
        return out


def pair_rows(k: int, positions: Sequence[int], r: float, r_at: int = 0) -> np.ndarray:
    """One row per position m: r at r_at, +L at m and -L at m+1, zeros elsewhere."""
    rows = np.zeros((len(positions), k))
    idx = np.arange(len(positions))
    pos = np.asarray(positions)
    rows[idx, r_at] = r
    rows[idx, pos] = L_VALUE
    rows[idx, pos + 1] = -L_VALUE
    return rows


def code(out: np.ndarray, r: float) -> np.ndarray:
    return np.where(out == r, 1, np.where(out == 0, 0, 2))


def pair_walk(box: Box, k: int, positions: Sequence[int], r: float, capacity: int) -> Walk:
    """Walk the pair over `positions` (each m with 0 < m < k-1), `capacity` rows per box call."""
    positions = [int(m) for m in positions if 0 < m < k - 1]
    codes = []
    for i in range(0, len(positions), capacity):
        chunk = positions[i:i + capacity]
        codes += code(np.asarray(box(pair_rows(k, chunk, r)), np.float64), r).tolist()
    return Walk(r, tuple(positions), tuple(codes))


def walk_positions(k: int, budget: int) -> list:
    """Every position when k-2 <= budget, else the positions just before each multiple of a
    power-of-two stride (where boundaries of power-of-two spans fall), finest stride that fits."""
    if k - 2 <= budget:
        return list(range(1, k - 1))
    stride = 16
    while (k // stride) * 3 > budget:
        stride *= 2
    pos = set()
    for j in range(stride, k - 1, stride):
        pos.update((j - 2, j - 1, j))
    return sorted(p for p in pos if 0 < p < k - 1)
