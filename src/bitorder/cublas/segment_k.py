"""Algorithm 42's run-time split (split_k -1, "segment_k_on" kernels): a candidate read from records.

cuBLAS 13.1's sm90 xmma segment-K kernel (algorithm 42, tile 64x64, stages 64xAUTO) fitted on the CPU
from 32 H200 survey records (bf16, torch layout nt, M 8,478-9,699, N 10-63, K 7,541-38,554; 2026-12-02
call 3 and 2026-12-02c call 4; benchmarks/results/2026-12-02c-segment-k-cpu/README.md):

* The output tiles (64x64 in cuBLAS's frame; torch's N <= 64 makes them row blocks of torch's M) fill
  one wave of SM_COUNT = 132 CTAs data-parallel: each of the first 132 tiles is the plain k16 chain
  over all of K. The rem = tiles - 132 tiles left over are split along K ("segment-K").
* Each left-over tile's ceil(K / 64) K iterations are cut into s contiguous segments as evenly as
  possible, the longer segments (one iteration more) last; s is the number of fp32 64x64 partial
  buffers per left-over tile in the answer's workspace (workspace // (rem * 16384); 2, 4, 8, 10, 13
  or 16 in the records, 8 wherever the records can tell).
* Each segment is a k16 chain from zero (fp32); segments 1..s-1 are summed in fp32 (round to nearest)
  in K order, and segment 0 is added last; one rounding to the output type.

Walks: every pair straddling a boundary of segments i, i+1 (i >= 1) keeps r, so the partials holding
+L and -L meet before segment 0 (which holds r): a merge from segment 0 upwards is excluded; the order
among segments 1..s-1 is not read (their sum in reverse order fits too). No GEMMDesc holds this (the
split depends on the tile, the segments are uneven, segment 0 is merged last): the rule replays on
the twin's primitives here and plans nothing on the GPU; plan() answers only under
BITORDER_UNVERIFIED=1 (a candidate until a GPU ground check).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..desc import GEMMDesc
from ..emulate import tensorcore as tc
from ..emulate.gemm import _part, add_rn, epilogue, round_to
from . import walks as W
from .profile import candidates_allowed

SM_COUNT = 132
TILE = 64
PARTIAL_BYTES = TILE * TILE * 4       # one fp32 64x64 partial buffer
MERGES = ("part0_last", "reverse", "sequential")   # the candidate's, its undecided twin, an excluded one


@dataclass(frozen=True)
class SegmentKPlan:
    """One call's run-time split: rows [0, dp_rows) of torch's output are the plain chain, the rows
    after it (the left-over tiles) sum the segments `bounds` (K element offsets, 0 .. K) by `merge`."""

    k: int
    dtype: str
    dp_rows: int
    bounds: tuple
    merge: str = "part0_last"

    @property
    def plain(self) -> GEMMDesc:
        """The data-parallel tiles' descriptor (and each segment's chain: wgmma k16 groups from its start)."""
        return GEMMDesc("plain", self.dtype, self.k, "wgmma", 16)

    def parts_for_row(self, row: int) -> tuple:
        """The (start, stop) K spans whose chains make output row `row`'s sum, in K order."""
        if row < self.dp_rows:
            return ((0, self.k),)
        return tuple(zip(self.bounds, self.bounds[1:]))


def segment_bounds(k: int, s: int, longer: str = "last") -> tuple:
    """K offsets of s segments of the ceil(k / 64) iterations, as even as possible, the longer ones
    `longer` ("last": the candidate; "first": a planted fault), the last clipped to k."""
    iters = -(-k // TILE)
    base, extra = divmod(iters, s)
    lens = [base + (i >= s - extra if longer == "last" else i < extra) for i in range(s)]
    out, pos = [0], 0
    for n in lens:
        pos += n
        out.append(min(pos * TILE, k))
    return tuple(out)


def workspace_of(answer: dict) -> int | None:
    """The answer's workspace in bytes (a heuristic answer's workspace_size, a logged call's workspace)."""
    ws = answer.get("workspace_size", answer.get("workspace"))
    return int(ws) if ws not in (None, "") else None


def plan(answer: dict, m: int, n: int, k: int, dtype: str, bias: bool = False, s_shift: int = 0,
         longer: str = "last", merge: str = "part0_last", segments: int | None = None) -> SegmentKPlan | None:
    """The candidate's plan for torch's (m, n, k) call that cuBLAS answered with `answer`, or None
    (not a candidate call, outside the records' region, or BITORDER_UNVERIFIED is not 1).
    s_shift / longer / merge / segments (a fixed s): deliberate variants (planted faults and the
    alternatives tested)."""
    if not candidates_allowed():
        return None
    if (answer.get("algo_id") != 42 or answer.get("split_k") != -1 or answer.get("tile") != "64x64"
            or str(answer.get("stages")) != "64xAUTO" or dtype != "bf16" or bias or n > TILE):
        return None
    tiles = -(-m // TILE)
    rem = tiles - SM_COUNT
    ws = workspace_of(answer)
    if not 1 <= rem <= 20 or ws is None:
        return None     # one wave plus 1-20 left-over tiles: the records' region
    s = (segments or ws // (rem * PARTIAL_BYTES)) + s_shift
    iters = -(-k // TILE)
    if s < 2 or s > iters:
        return None
    return SegmentKPlan(k, dtype, SM_COUNT * TILE, segment_bounds(k, s, longer), merge)


def merge_parts(parts: list, merge: str) -> np.ndarray:
    """fp32 partials (K order) summed as `merge` says: part0_last (1..s-1 in order, then part 0),
    reverse (s-1 down to 0), sequential (0 up to s-1)."""
    if len(parts) == 1:
        return parts[0]
    order = {"part0_last": parts[1:] + parts[:1], "reverse": parts[::-1], "sequential": parts}[merge]
    acc = order[0]
    for p in order[1:]:
        acc = add_rn(acc, p)
    return acc


def accumulate_row(a_row: np.ndarray, b: np.ndarray, p: SegmentKPlan, row: int) -> np.ndarray:
    """The fp32 sum the kernel hands its epilogue for output row `row`: a_row (K,), b (K, C) float64."""
    a = np.asarray(a_row, np.float64)[None, :]
    parts = [_part(a, b, p.plain, s, e) for s, e in p.parts_for_row(row)]
    return merge_parts(parts, p.merge)


def matmul(a: np.ndarray, b: np.ndarray, p: SegmentKPlan) -> np.ndarray:
    """The candidate's output for a (M, K) @ b (K, N) (float64 values of bf16), as bf16 values."""
    b = np.asarray(b, np.float64)
    rows = [epilogue(accumulate_row(a[i], b, p, i), p.plain, p.dtype) for i in range(a.shape[0])]
    return np.concatenate(rows, axis=0)


# -- against a survey record ------------------------------------------------------------------------

def record_plan(rec: dict, **variant) -> SegmentKPlan | None:
    """The candidate (or a variant) for the call a survey record ran."""
    c = rec["case"]
    return plan(rec["ran"][0], c["m"], c["n"], c["k"], c["dtype"], c["op"] == "linear_bias", **variant)


def sample_mismatches(rec: dict, p: SegmentKPlan, kind: str = "narrow", rows=None) -> int:
    """Sampled outputs of one draw (rows: which of the sampled rows; None: all) the plan gets wrong."""
    from .prober import operand_rows
    c, s = rec["case"], rec["samples_" + kind]
    seed = rec["seed"] + (1 if kind == "wide" else 0)
    b = operand_rows(c, seed, kind, "b", 0, s["cols"]).T
    bad = 0
    for i, row in enumerate(s["rows"]):
        if rows is not None and row not in rows:
            continue
        a = operand_rows(c, seed, kind, "a", 0, [row])[0]
        got = epilogue(accumulate_row(a, b, p, row), p.plain, c["dtype"]).view(np.int16)[0]
        bad += int((got != np.array(s["bits"][0][i], dtype=np.int16)).sum())
    return bad


def _sparse_part(k0: int, k1: int, vals: dict) -> np.ndarray:
    """A k16 chain from zero over [k0, k1) of a row with a few nonzeros {k: value} times ones (a step
    over zeros leaves the accumulator as it is)."""
    acc = np.zeros((1, 1), np.float32)
    for g in sorted({(q - k0) // 16 for q in vals if k0 <= q < k1}):
        s, e = k0 + 16 * g, min(k0 + 16 * g + 16, k1)
        a = np.zeros((1, e - s))
        for q, v in vals.items():
            if s <= q < e:
                a[0, q - s] = v
        acc = tc.mma_step(a, np.ones((e - s, 1)), acc, "bf16")
    return acc


def walk_code(parts: tuple, merge: str, m: int, r: float, memo: dict) -> int:
    """The walk's code (1: r survived, 0: zero, 2: other) for the pair at m under these parts."""
    def where(q):
        i = next(j for j, (s, e) in enumerate(parts) if s <= q < e)
        return i, (q - parts[i][0]) // 16
    (i0, g0), (im, gm), (in_, gn) = where(0), where(m), where(m + 1)
    key = (len(parts), merge, r, im, in_, im == i0 and gm == g0, gm == gn)
    if key not in memo:
        vals = {0: r, m: W.L_VALUE, m + 1: -W.L_VALUE}
        out = round_to(merge_parts([_sparse_part(s, e, vals) for s, e in parts], merge), "bf16")[0, 0]
        memo[key] = 1 if out == r else 0 if out == 0 else 2
    return memo[key]


def walk_mismatches(rec: dict, p: SegmentKPlan) -> tuple[int, int]:
    """(recorded walk positions the plan gets wrong, positions compared): each walk row is output
    row (its index in the walk) mod M, as the survey laid the walk into A's rows."""
    from .prober import walk_codes
    c = rec["case"]
    cap = c["m"]
    pos = [q for q in W.walk_positions(c["k"], max(256, cap * 24)) if 0 < q < c["k"] - 1]
    index = {q: i for i, q in enumerate(pos)}
    bad = n = 0
    memo: dict = {}
    for which, r in (("small", W.R_SMALL), ("edge", W.R_EDGE)):
        for q, code in walk_codes(rec, which).items():
            n += 1
            bad += walk_code(p.parts_for_row(index[q] % cap), p.merge, q, r, memo) != code
    return bad, n

