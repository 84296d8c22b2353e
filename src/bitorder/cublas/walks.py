"""The prober's numerical instrument: +L, -L and r placed on an otherwise empty K axis.

Paper section 4 (fp8 walks: see FP8_L below). A black box is any function that takes operand rows (R, K) and
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


# -- fp8 (e4m3) walks -----------------------------------------------------------------------
# e4m3 holds nothing near 2^10 or 2^-17 (largest 448, smallest normal 2^-6), so an fp8 walk
# plants products: the walked operand carries +-2^8 and r_a = 2^-6, the other operand 2^7
# beside the pair and 2^-6 at r's position, giving products +-2^15 and r = 2^-12 (ratio 2^27,
# as the fp16 walk's 2^10 / 2^-17). Every value is exact in e4m3, and the pair fits fp16 partials.
# r is lost in any fp32 accumulator or add that meets an uncancelled L (2^-12 is below half an
# fp32 ulp of 2^15), so a walk reads where accumulators begin and end: promotion intervals
# (use_fast_accum=False) and split parts, but not the k32 instruction groups: the fp8 step
# truncates terms to F = 13 bits below Emax and keeps 13 fraction bits of its result, so an
# r at the edge survives a pair that straddles two steps too (no fp8 edge walk).
# Scales are 1.0 and a bias is zero during walks.
FP8_L = (2.0 ** 8, 2.0 ** 7)        # (walked operand, other operand) beside the pair
FP8_R = (2.0 ** -6, 2.0 ** -6)      # (walked operand, other operand) at r's position
FP8_R_OUT = FP8_R[0] * FP8_R[1]     # the output when only r survives: 2^-12
FP8_WINDOW = 512                    # positions walked densely after r (three or four 128-intervals)


def fp8_plant(k: int, positions: Sequence[int], r_at: int) -> tuple:
    """(rows (R, K), col (K,)): walked-operand rows with r at r_at, +L at m and -L at m+1, and the
    other operand's column along K. The product rows[i] @ col is the walk's output i."""
    rows = np.zeros((len(positions), k))
    idx = np.arange(len(positions))
    pos = np.asarray(positions, dtype=np.int64)
    rows[idx, r_at] = FP8_R[0]
    rows[idx, pos] = FP8_L[0]
    rows[idx, pos + 1] = -FP8_L[0]
    col = np.full(k, FP8_L[1])
    col[r_at] = FP8_R[1]
    return rows, col


def fp8_walk_specs(k: int, split_k: int, budget: int) -> list:
    """The walks an fp8 survey record carries: r at 0 (reads the first part's intervals and every
    part boundary), and with a split, r inside the second part (about 1.5 K / split_k, on a multiple
    of 16): its intervals tell whether promotion counts from the part's start or from k = 0."""
    specs = [{"name": "r0", "r_at": 0, "budget": budget, "window": FP8_WINDOW}]
    if split_k > 1:
        r_at = (3 * k // (2 * split_k)) // 16 * 16
        if 0 < r_at < k - 4:
            specs.append({"name": "part1", "r_at": r_at, "budget": budget, "window": FP8_WINDOW})
    return specs


def fp8_positions(k: int, spec: dict) -> list:
    """The pair positions m of one fp8 walk, rebuilt from its spec: walk_positions(k, budget)
    and every position in the window after r, without the pairs that would cover r."""
    r_at = spec["r_at"]
    pos = set(walk_positions(k, spec["budget"])) | set(range(r_at + 1, min(k - 1, r_at + 1 + spec["window"])))
    return sorted(m for m in pos if 0 < m < k - 1 and m not in (r_at - 1, r_at))


def fp8_walk(box, k: int, spec: dict, capacity: int) -> Walk:
    """Run one fp8 walk on box(rows, col) -> outputs (R,) float64 (rows: walked-operand rows,
    col: the other operand along K), `capacity` rows per call; codes against FP8_R_OUT."""
    positions = fp8_positions(k, spec)
    codes = []
    for i in range(0, len(positions), capacity):
        rows, col = fp8_plant(k, positions[i:i + capacity], spec["r_at"])
        codes += code(np.asarray(box(rows, col), np.float64), FP8_R_OUT).tolist()
    return Walk(FP8_R_OUT, tuple(positions), tuple(codes))


def runs_to_codes(positions: Sequence[int], runs: list) -> dict:
    """{position: code} from a walk's run-length form (positions as the walk chose them)."""
    codes, it = {}, iter(runs)
    cur = next(it, None)
    for m in positions:
        while cur is not None and m > cur[2]:
            cur = next(it, None)
        if cur is not None and cur[1] <= m <= cur[2]:
            codes[m] = cur[0]
    return codes
