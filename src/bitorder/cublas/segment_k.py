"""cuBLAS 13.1's run-time split (split_k -1, sm90 xmma "segment_k_on" kernels): a reading of records,
verified on fresh H200 calls 2026-12-02f.

Bits contract: for a call this module plans, `matmul` / `accumulate` return, output by output, the bytes
the reading says cuBLAS writes; it is a CPU replay on the twin's primitives (`emulate.gemm._part`, `add_rn`,
`epilogue`), plans nothing on the GPU, and `plan` answers for a kernel KERNELS marks verified, or for any
under BITORDER_UNVERIFIED=1.
Two kernels, one reading (KERNELS):

* algorithm 42: bf16, tile 64x64, torch layouts nt and nn (tn, tt candidates), N <= 64 (one tile column), one wave of 132 tiles plus
  1-20 (fitted from 32 H200 survey records, 2026-12-02 call 3 and 2026-12-02c call 4; the merge order
  from 2026-12-02d's ground check: benchmarks/results/2026-12-02d-segment-k-cpu/README.md);
* algorithm 41: fp16, tile 128x128, torch layout nt, two waves plus 2-66 tiles (35 records, 2026-12-02d call 3).

The reading, in cuBLAS's frame (torch's output transposed: cuBLAS rows are torch columns):

* The T = mt x nt output tiles are ordered n-tile by n-tile, the m-tiles of an even n-tile ascending and
  of an odd n-tile descending ("serpentine"). The first T - rem tiles (rem = T mod 132: whole waves of
  SM_COUNT = 132 CTAs) are data-parallel: each is the plain wgmma k16 chain over all of K. The rem tiles
  left over are split along K ("segment-K").
* Each left-over tile's ceil(K / 64) K iterations are cut into s contiguous segments as evenly as
  possible, the longer segments (one iteration more) last; s is the number of fp32 partial buffers per
  left-over tile in the answer's workspace (workspace // (rem * tile * tile * 4)).
* Each segment is a k16 chain from zero (fp32). The s partials are summed pairwise, level by level,
  pairing from the last segment: (s-2, s-1), (s-4, s-3), ...; at a level with an odd count the first
  (lowest-K) partial passes up unpaired (merge "pairwise"); every add fp32 round to nearest; one
  rounding to the output type.

Evidence: the 32 algorithm-42 records' sampled bits and 1.6M walk positions, the 35 algorithm-41 records'
sampled bits and walks (the serpentine order: which m-tile of a partly left-over n-tile row is split), and
the 2026-12-02d ground check's differ counts (19 calls x 3 draws x 3 twins, reproduced exactly; the old
merge "part0_last", segments 1..s-1 in K order then segment 0, missed 1,210 outputs of the cancelling
draws). No GEMMDesc holds this (the split depends on the tile, the segments are uneven, the merge is a
tree): to plan it on the GPU, GEMMDesc needs explicit part bounds, a per-tile split and a tree merge.
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
K_TILE = 64                            # K elements per main-loop iteration (tilesize ...x64)
TILE = 64                              # algorithm 42's tile (kept for callers of the first reading)
# per algorithm: tile (square), output dtype, whole waves before the split, left-over tiles in the records
# verified: grounded on fresh H200 calls with a planted fault (plans by default); otherwise only under
# BITORDER_UNVERIFIED=1. Both 2026-12-02f (benchmarks/results/2026-12-02f-gpu/call1: 36 calls of 42, 12 of 41,
# s 2-32, three draws each, every output identical to torch's; merge paired from segment 0: differs)
# layouts: the torch layouts a ground checked; candidate_layouts: others the same reading should hold for, planned only
# under BITORDER_UNVERIFIED=1 until a ground widens "layouts" (2026-12-03c: a 4x census sent 2 bf16 "nn" calls of
# algorithm 42 to cuBLAS; cuBLAS's m is torch's N in every layout, so the tiles and segments do not move with it).
# "nn" grounded 2026-12-03c call 2 (benchmarks/results/2026-12-03c-gpu: 12 of 12 fresh calls identical, one segment
# too many made all 12 differ); the designed shapes drew no tn or tt answer.
KERNELS = {42: {"tile": 64, "dtype": "bf16", "waves": 1, "rem": (1, 20), "one_column": True, "verified": True,
                "layouts": ("nt", "nn"), "candidate_layouts": ("tn", "tt")},
           41: {"tile": 128, "dtype": "fp16", "waves": 2, "rem": (2, 66), "one_column": False, "verified": True,
                "layouts": ("nt",), "candidate_layouts": ()}}
# algorithm 41 with 256x64 tiles (256 along cuBLAS's m, torch's N; 64 along torch's M): fewer tiles than SMs, no
# whole wave, so every tile splits into s segments, s = workspace // (tiles * 256 * 64 * 4); a zero workspace (s = 0)
# runs the plain chain. Read from 10 survey records (2026-12-02g call 1: torch layout tt, M 2 and 12, 46-63 tiles;
# fp16 s = 2, bf16 workspace 0); the region below is what a ground checked (verified) or the records (not).
# Verified 2026-12-03b (call 4, benchmarks/results/2026-12-03b-gpu/call4): the census of 400 designed shapes in the
# region answered it 32 times (2026-12-03 call 2: 0 of the same list), all 32 identical on fresh draws, and
# mutant-segk-wide made 5 of 32 differ (the fp16 ones that split; bf16 runs the plain chain).
WIDE = {41: {"tile": (256, 64), "tiles": (46, 63), "max_m": 64, "layouts": ("tt",), "verified": True}}
# run-time split answers whose kernel runs segment-K off (its name says "execute_segment_k_off"): one plain wgmma
# k16 chain in K order per output, a bias as the unsplit entries add it (in fp32, before the rounding). Read from 5
# survey records (2026-12-02h call 6: fp16 F.linear with a bias, 64x64 tiles, 114-128 tiles on 132 SMs, K 1,062 and
# 1,262, torch layouts tt and tn; 480 sampled outputs and 11,800 walk positions fit, 2-4 segments fail); the region
# is the records' (tiles, K, layouts, bias) until a ground widens it. "bias": the epilogue's bias rule. Grounded
# 2026-12-03 call 1 (H200): 18 of 18 planned cases identical on fresh draws, mutant-segk-off 18 of 18 differ.
UNSPLIT = {41: {"tile": "64x64", "dtype": "fp16", "tiles": (114, 128), "k": (1062, 1262), "layouts": ("tt", "tn"),
                "bias_only": True, "bias": "bias_acc", "verified": True}}
# the candidate's merge, the one it replaced, and the alternatives the records and the ground excluded
MERGES = ("pairwise", "pairwise_first", "part0_last", "reverse", "sequential")


@dataclass(frozen=True)
class SegmentKPlan:
    """One call's run-time split. Tiles are tile x tile in cuBLAS's frame (mt tiles along torch's N, nt
    along torch's M); those at serpentine order index >= first_split sum the segments `bounds` (K offsets,
    0 .. K) by `merge`, the others run the plain chain."""

    k: int
    dtype: str
    bounds: tuple
    merge: str = "pairwise"
    tile: int = 64
    mt: int = 1
    nt: int = 1
    first_split: int = SM_COUNT
    order: str = "serpentine"

    @property
    def plain(self) -> GEMMDesc:
        """The data-parallel tiles' descriptor (and each segment's chain: wgmma k16 groups from its start)."""
        return GEMMDesc("plain", self.dtype, self.k, "wgmma", 16)

    @property
    def dp_rows(self) -> int:
        """Torch rows before the first left-over tile (one tile column only: algorithm 42)."""
        return self.first_split * self.tile if self.mt == 1 else 0

    def order_index(self, mi: int, ni: int) -> int:
        """Tile (m-tile mi, n-tile ni)'s place in the launch order ("rowmajor": a planted fault)."""
        flip = self.order == "serpentine" and ni % 2 == 1
        return ni * self.mt + (self.mt - 1 - mi if flip else mi)

    def is_split(self, row: int, col: int = 0) -> bool:
        """Whether torch's output (row, col) lies in a left-over tile."""
        return self.order_index(col // self.tile, row // self.tile) >= self.first_split

    def parts_for(self, row: int, col: int = 0) -> tuple:
        """The (start, stop) K spans whose chains make torch's output (row, col), in K order."""
        if not self.is_split(row, col):
            return ((0, self.k),)
        return tuple(zip(self.bounds, self.bounds[1:]))

    def parts_for_row(self, row: int) -> tuple:
        return self.parts_for(row, 0)


def segment_bounds(k: int, s: int, longer: str = "last") -> tuple:
    """K offsets of s segments of the ceil(k / 64) iterations, as even as possible, the longer ones
    `longer` ("last": the candidate; "first": a planted fault), the last clipped to k."""
    iters = -(-k // K_TILE)
    base, extra = divmod(iters, s)
    lens = [base + (i >= s - extra if longer == "last" else i < extra) for i in range(s)]
    out, pos = [0], 0
    for n in lens:
        pos += n
        out.append(min(pos * K_TILE, k))
    return tuple(out)


def workspace_of(answer: dict) -> int | None:
    """The answer's workspace in bytes (a heuristic answer's workspace_size, a logged call's workspace)."""
    ws = answer.get("workspace_size", answer.get("workspace"))
    return int(ws) if ws not in (None, "") else None


def plan(answer: dict, m: int, n: int, k: int, dtype: str, bias: bool = False, s_shift: int = 0,
         longer: str = "last", merge: str = "pairwise", segments: int | None = None,
         order: str = "serpentine", layout: str = "nt") -> SegmentKPlan | None:
    """The candidate's plan for torch's (m, n, k) call in torch layout `layout` ("nt": a row-major, b a
    transposed view) that cuBLAS answered with `answer`, or None (not a segment-K answer, outside the
    records' region, or a kernel not verified while BITORDER_UNVERIFIED is not 1).
    s_shift / longer / merge / segments (a fixed s) / order: deliberate variants (planted faults and the
    alternatives tested)."""
    if answer.get("tile") == "256x64":
        return _plan_wide(answer, m, n, k, dtype, bias, layout, s_shift, longer, merge, segments)
    kern = KERNELS.get(answer.get("algo_id"))
    if kern is None or not (kern["verified"] or candidates_allowed()):
        return None
    if layout not in kern["layouts"] and not (layout in kern["candidate_layouts"] and candidates_allowed()):
        return None
    if (answer.get("split_k") != -1 or answer.get("tile") != f"{kern['tile']}x{kern['tile']}"
            or str(answer.get("stages")) != "64xAUTO" or dtype != kern["dtype"] or bias):
        return None
    t = kern["tile"]
    mt, nt = -(-n // t), -(-m // t)          # cuBLAS's m is torch's N
    if kern["one_column"] and mt != 1:
        return None
    rem = mt * nt - kern["waves"] * SM_COUNT
    ws = workspace_of(answer)
    lo, hi = kern["rem"]
    if not lo <= rem <= hi or ws is None:
        return None     # the records' region: whole waves plus these left-over tiles
    s = (segments or ws // (rem * t * t * 4)) + s_shift
    if s < 2 or s > -(-k // K_TILE):
        return None
    return SegmentKPlan(k, dtype, segment_bounds(k, s, longer), merge, t, mt, nt, mt * nt - rem, order)


def _plan_wide(answer, m, n, k, dtype, bias, layout, s_shift=0, longer="last", merge="pairwise", segments=None):
    """WIDE's plan: every tile split the same way (or none), so one square tile of 256 stands for 256x64."""
    kern = WIDE.get(answer.get("algo_id"))
    if kern is None or not (kern["verified"] or candidates_allowed()):
        return None
    if answer.get("split_k") != -1 or str(answer.get("stages")) != "64xAUTO" or bias or layout not in kern["layouts"]:
        return None
    tm, tn = kern["tile"]
    mt, nt = -(-n // tm), -(-m // tm)       # the square stand-in's tiles
    tiles, ws = mt * -(-m // tn), workspace_of(answer)
    lo, hi = kern["tiles"]
    if m > kern["max_m"] or not lo <= tiles <= hi or ws is None:
        return None
    s = (segments if segments is not None else ws // (tiles * tm * tn * 4)) + s_shift
    if s == 0:         # no workspace: the plain chain in every tile
        return SegmentKPlan(k, dtype, (0, k), merge, tm, mt, nt, mt * nt)
    if s < 2 or s > -(-k // K_TILE):
        return None    # (one partial buffer: unread)
    return SegmentKPlan(k, dtype, segment_bounds(k, s, longer), merge, tm, mt, nt, 0)


def unsplit(answer: dict, m: int, n: int, k: int, dtype: str, bias: bool, layout: str) -> str | None:
    """The bias rule ("bias_acc") when torch's 2-D (m, n, k) call in torch layout `layout`, answered with a run-time
    split, lies in UNSPLIT's region (the kernel runs segment-K off: the plain chain), or None (outside it, or a
    candidate while BITORDER_UNVERIFIED is not 1)."""
    kern = UNSPLIT.get(answer.get("algo_id"))
    if kern is None or not (kern["verified"] or candidates_allowed()):
        return None
    if (answer.get("split_k") != -1 or answer.get("tile") != kern["tile"] or str(answer.get("stages")) != "64xAUTO"
            or dtype != kern["dtype"] or layout not in kern["layouts"] or (kern["bias_only"] and not bias)):
        return None
    t = int(kern["tile"].split("x")[0])
    tiles = -(-m // t) * -(-n // t)
    lo, hi = kern["tiles"]
    k_lo, k_hi = kern["k"]
    return kern["bias"] if lo <= tiles <= hi and k_lo <= k <= k_hi else None


def merge_tree(s: int, merge: str = "pairwise"):
    """The merge as a nested tuple over segment indices 0..s-1 (a pair adds its two sides, fp32 RN):
    pairwise (the candidate: pairs from the last segment, an odd first one passes up), pairwise_first
    (pairs from segment 0, an odd last one passes up), part0_last (1..s-1 in K order, then 0), reverse
    (s-1 down to 0), sequential (0 up to s-1)."""
    idx = list(range(s))
    if merge in ("pairwise", "pairwise_first"):
        level = idx
        while len(level) > 1:
            odd = len(level) % 2
            if merge == "pairwise":
                level = level[:odd] + [(level[i], level[i + 1]) for i in range(odd, len(level), 2)]
            else:
                level = [(level[i], level[i + 1]) for i in range(0, len(level) - 1, 2)] + level[len(level) - odd:]
        return level[0]
    order = {"part0_last": idx[1:] + idx[:1], "reverse": idx[::-1], "sequential": idx}[merge]
    acc = order[0]
    for i in order[1:]:
        acc = (acc, i)
    return acc


def merge_parts(parts: list, merge: str, add=add_rn):
    """fp32 partials (K order) summed as merge_tree(len(parts), merge) says, each pair by add (an fp32
    add rounded to nearest: the twin's add_rn on numpy arrays; bitorder.gemm.segment_k passes torch's)."""
    def ev(t):
        return parts[t] if isinstance(t, int) else add(ev(t[0]), ev(t[1]))
    return ev(merge_tree(len(parts), merge))


def chains(a_rows: np.ndarray, b: np.ndarray, p: SegmentKPlan, rows, cols) -> tuple:
    """(split, full, parts) for torch's outputs rows x cols (a_rows (R, K): A's rows `rows`; b (K, C): B's
    columns `cols`, float64 values): split (R, C) bool, whether an output is in a left-over tile; full
    (R, C) the plain chain (None when no output needs it); parts the segments' fp32 partials (R, C) each,
    in K order ([] when none is needed). Rows that need neither are zeros."""
    a_rows, b = np.asarray(a_rows, np.float64), np.asarray(b, np.float64)
    split = np.array([[p.is_split(r, c) for c in cols] for r in rows], bool).reshape(len(rows), len(cols))
    shape = (len(rows), len(cols))

    full, parts = None, []
    if (~split).any():      # the plain chain only for rows that have an output outside the left-over tiles
        ri = np.flatnonzero((~split).any(axis=1))
        full = np.zeros(shape, np.float32)
        full[ri] = _part(a_rows[ri], b, p.plain, 0, p.k)
    if split.any():         # and the segments only for rows that have one inside (chains are row by row)
        ri = np.flatnonzero(split.any(axis=1))
        for s, e in zip(p.bounds, p.bounds[1:]):
            x = np.zeros(shape, np.float32)
            x[ri] = _part(a_rows[ri], b, p.plain, s, e)
            parts.append(x)
    return split, full, parts


def accumulate(a_rows: np.ndarray, b: np.ndarray, p: SegmentKPlan, rows, cols, merge: str | None = None) -> np.ndarray:
    """The fp32 sums the kernel hands its epilogue for torch's outputs rows x cols (see chains); merge:
    another merge of the same partials (default: the plan's)."""
    split, full, parts = chains(a_rows, b, p, rows, cols)
    return merged(split, full, parts, merge or p.merge)


def merged(split: np.ndarray, full, parts: list, merge: str) -> np.ndarray:
    """chains()'s outputs put together: the plain chain outside the left-over tiles, the merge inside."""
    if not parts:
        return full
    m = merge_parts(parts, merge)
    return m if full is None else np.where(split, m, full)


def accumulate_row(a_row: np.ndarray, b: np.ndarray, p: SegmentKPlan, row: int) -> np.ndarray:
    """The fp32 sum for output row `row` (one tile column: every column shares its spans): (1, C)."""
    a = np.asarray(a_row, np.float64)[None, :]
    parts = [_part(a, np.asarray(b, np.float64), p.plain, s, e) for s, e in p.parts_for(row, 0)]
    return merge_parts(parts, p.merge)


def matmul(a: np.ndarray, b: np.ndarray, p: SegmentKPlan) -> np.ndarray:
    """The candidate's output for a (M, K) @ b (K, N) (float64 values of the dtype), as dtype values."""
    rows, cols = list(range(a.shape[0])), list(range(b.shape[1]))
    return epilogue(accumulate(a, b, p, rows, cols), p.plain, p.dtype)


# -- against a survey record ------------------------------------------------------------------------

def record_plan(rec: dict, **variant) -> SegmentKPlan | None:
    """The candidate (or a variant) for the call a survey record ran."""
    c = rec["case"]
    return plan(rec["ran"][0], c["m"], c["n"], c["k"], c["dtype"], c["op"] == "linear_bias", layout=c["layout"], **variant)


def sample_mismatches(rec: dict, p: SegmentKPlan, kind: str = "narrow", rows=None) -> int:
    """Sampled outputs of one draw (rows: which of the sampled rows; None: all) the plan gets wrong."""
    from .prober import operand_rows
    c, s = rec["case"], rec["samples_" + kind]
    seed = rec["seed"] + (1 if kind == "wide" else 0)
    keep = [i for i, r in enumerate(s["rows"]) if rows is None or r in rows]
    if not keep:
        return 0
    rr = [s["rows"][i] for i in keep]
    a = operand_rows(c, seed, kind, "a", 0, rr)
    b = operand_rows(c, seed, kind, "b", 0, s["cols"]).T
    got = epilogue(accumulate(a, b, p, rr, s["cols"]), p.plain, c["dtype"]).view(np.int16)
    want = np.array(s["bits"][0], dtype=np.int16)[keep]
    return int((got != want).sum())


def _sparse_part(k0: int, k1: int, vals: dict, fmt: str) -> np.ndarray:
    """A k16 chain from zero over [k0, k1) of a row with a few nonzeros {k: value} times ones (a step
    over zeros leaves the accumulator as it is)."""
    acc = np.zeros((1, 1), np.float32)
    for g in sorted({(q - k0) // 16 for q in vals if k0 <= q < k1}):
        s, e = k0 + 16 * g, min(k0 + 16 * g + 16, k1)
        a = np.zeros((1, e - s))
        for q, v in vals.items():
            if s <= q < e:
                a[0, q - s] = v
        acc = tc.mma_step(a, np.ones((e - s, 1)), acc, fmt)
    return acc


def walk_code(parts: tuple, merge: str, m: int, r: float, memo: dict, fmt: str = "bf16") -> int:
    """The walk's code (1: r survived, 0: zero, 2: other) for the pair at m under these parts."""
    def where(q):
        i = next(j for j, (s, e) in enumerate(parts) if s <= q < e)
        return i, (q - parts[i][0]) // 16
    (i0, g0), (im, gm), (in_, gn) = where(0), where(m), where(m + 1)
    key = (len(parts), merge, r, fmt, im, in_, im == i0 and gm == g0, gm == gn)
    if key not in memo:
        vals = {0: r, m: W.L_VALUE, m + 1: -W.L_VALUE}
        out = round_to(merge_parts([_sparse_part(s, e, vals, fmt) for s, e in parts], merge), fmt)[0, 0]
        memo[key] = 1 if out == r else 0 if out == 0 else 2
    return memo[key]


def walk_mismatches(rec: dict, p: SegmentKPlan) -> tuple[int, int]:
    """(recorded walk positions the plan gets wrong, positions compared): each walk row is output
    row (its index in the walk) mod M, column 0, as the survey laid the walk into A's rows."""
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
            bad += walk_code(p.parts_for(index[q] % cap, 0), p.merge, q, r, memo, p.dtype) != code
    return bad, n
