"""Check a GPU GEMM's result on the CPU: a Freivalds certificate and an exact row check.

Freivalds: for C = A @ B and random +-1 vectors R (N x k), C R must equal A (B R) up to
rounding. The residual |C R - A (B R)| is measured against a bound built from |A|, |B|
and the rounding units of the output and the accumulator; a check passes while the
largest ratio stays under `tau`, a constant calibrated once on honest results
(`calibrate`) and then frozen. B R is precomputed once per weight matrix.

Exact: recompute sampled rows with the CPU twin (bitorder.emulate) under the GEMM's
descriptor and compare bytes; it finds any fault in the rows it samples.

A fault whose contributions cancel under one projection escapes it: a two-element
fault (+d, -d) in one row is missed when the two signs of r agree, probability 1/2 per
projection, so k projections miss it with probability at least 2^-k (the sign model:
k = 20 under 1e-6). A small pair can also hide under the bound when the signs differ: on
1,000 H200 products a pair of 1% of max |C| escaped one projection 54.9% of the time, which
needs 24 projections for 1e-6 (benchmarks/results/2026-11-30d-components).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

UNIT = {"fp16": 2.0 ** -11, "bf16": 2.0 ** -8, "fp32": 2.0 ** -24}
ACC_UNIT = 2.0 ** -24
# Frozen from calibrate() on the CPU twin's honest fp16 results (seeds 0-11, three shapes, wide
# and narrow draws): 0.49 / 0.53 / 0.51 / 0.57 for 1 / 4 / 8 / 20 projections, margin 2 included.
# On the H200 (2026-11-30d, docs/certify.md) calibrate() gave 0.620 and the largest honest ratio of 1,000 products
# was 0.434: 0.6 stays, the stricter of the two, with no false alarm there.
DEFAULT_TAU = 0.6


@dataclass
class Result:
    """ok: every row within tau. ratio: the largest residual / bound. rows: the offending rows."""

    ok: bool
    ratio: float
    rows: list = field(default_factory=list)

    def __str__(self):
        return f"{'pass' if self.ok else 'FAIL'} (largest ratio {self.ratio:.3g}" + \
            ("" if self.ok else f", rows {self.rows[:10]}") + ")"


def missed_probability(projections: int, escape: float = 0.5) -> float:
    """Chance that k independent +-1 projections all miss a two-element cancelling fault in one
    row, when one projection misses it with probability `escape` (the sign model: 1/2)."""
    return escape ** projections


def projections_for(p_miss: float, escape: float = 0.5) -> int | None:
    """Fewest projections that bring the cancelling-pair miss probability under p_miss (None when
    escape >= 1: no number of projections does)."""
    if escape >= 1.0:
        return None
    k = 0
    while missed_probability(k, escape) >= p_miss:
        k += 1
    return k


class Certificate:
    """A Freivalds check for products with a fixed B (a weight matrix): B R is computed once."""

    def __init__(self, b, out_dtype: str = "fp16", projections: int = 4, seed: int = 0, tau: float = DEFAULT_TAU):
        b = np.asarray(b, dtype=np.float64)
        if b.ndim != 2:
            raise ValueError(f"B must be 2-D (K, N); got shape {b.shape}")
        if out_dtype not in UNIT:
            raise ValueError(f"out_dtype must be one of {sorted(UNIT)}")
        rng = np.random.default_rng(seed)
        self.r = rng.choice([-1.0, 1.0], size=(b.shape[1], projections))
        self.br = b @ self.r                      # (K, k)
        self.abs_b_r = np.abs(b) @ np.abs(self.r)  # (K, k): the bound's B part
        self.k, self.n = b.shape
        self.unit = UNIT[out_dtype]
        self.tau = tau

    def ratios(self, a, c) -> np.ndarray:
        """Per row, the largest |C R - A (B R)| / bound over the projections."""
        a = np.asarray(a, dtype=np.float64)
        c = np.asarray(c, dtype=np.float64)
        if a.shape[1] != self.k or c.shape != (a.shape[0], self.n):
            raise ValueError(f"shapes do not match: A {a.shape}, C {c.shape}, B ({self.k}, {self.n})")
        if not (np.isfinite(a).all() and np.isfinite(c).all()):
            raise ValueError("the certificate needs finite A and C (a NaN or inf cannot be bounded)")
        resid = np.abs(c @ self.r - a @ self.br)
        # each output rounds once (unit of the output type); each sum of K products accumulates
        # at most ~K units of the fp32 accumulator relative to sum |a||b|
        bound = np.abs(c) @ np.abs(self.r) * self.unit + np.abs(a) @ self.abs_b_r * (self.k * ACC_UNIT) + 1e-300
        return (resid / bound).max(axis=1)

    def check(self, a, c) -> Result:
        """Pass or fail, with the offending rows."""
        ratios = self.ratios(a, c)
        bad = np.nonzero(ratios > self.tau)[0].tolist()
        return Result(not bad, float(ratios.max()) if ratios.size else 0.0, bad)


def calibrate(pairs, out_dtype: str = "fp16", projections: int = 4, seed: int = 0, margin: float = 2.0) -> float:
    """tau = margin x the largest ratio over honest (a, b, c) triples; freeze the result."""
    worst = 0.0
    for a, b, c in pairs:
        worst = max(worst, float(Certificate(b, out_dtype, projections, seed, tau=np.inf).ratios(a, c).max()))
    return margin * worst


def exact_rows(a, b, c, desc, rows, bias=None) -> Result:
    """Recompute `rows` of C with the CPU twin under `desc`; compare bytes (ratio: rows that differ)."""
    from .emulate import matmul
    rows = list(rows)
    got = np.asarray(c)[rows]
    want = matmul(np.asarray(a)[rows], np.asarray(b), desc, bias=bias)
    bad_rows = [r for r, g, w in zip(rows, got, want) if g.tobytes() != w.tobytes()]
    return Result(not bad_rows, float(len(bad_rows)), bad_rows)
