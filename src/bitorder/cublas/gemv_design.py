"""Designed inputs for the gemv probe (benchmarks/probe_gemv.py): pairs that cancel, tracers that tell.

One experiment is one output of a gemv whose vector is all ones: its matrix row holds +L at a,
-L at b and up to T tracers r_i = 2^(E_LOW + i) at other K positions, zeros elsewhere. Every
product is exact (x * 1), every tracer sum is exact in fp32 (distinct powers of two, T <= 11
binades), and the whole tracer sum stays below half an fp32 ulp of L (L = 1.5 * 2^14). So, whatever the order:
  * a tracer that joins L or -L before the two meet is absorbed (L + r = L);
  * the node where L and -L first meet gives +0 exactly, and every tracer outside it survives.
The output is the sum of the surviving tracers, exact in the output type (fp16: 11, bf16: 8
significant bits), and bit i of out / 2^E_LOW says whether tracer i lay outside the smallest
subtree holding a and b: a rooted-triple query on the order's summation tree. `predict` reads
the same bits off a GemvOrder without arithmetic; tests/cublas/test_probe_gemv.py checks it
against simt.matmul and shows which candidate orders the design tells apart.

The positions are a deterministic function of (k, dtype, marks): the GPU side and the CPU fit
build the same design, and `digest` names it in the record.
"""
from __future__ import annotations

import functools
import hashlib

import numpy as np

from ..emulate import simt

L_VALUE = 1.5 * 2.0 ** 14        # fp16 and bf16 hold it; its fp32 ulp is 2^-9 on both sides (a power of two
                                 # would have 2^-10 below it: -2^14 + 2^-11 would not round back to -2^14)
E_TOP = -11                      # the largest tracer: every tracer sum stays below 2^-10
HEAD = 2048                      # adjacent pairs at every m below this: part 0's whole lane layout
ANCHORS = (0, 1, 2, 3, 5, 64, 100, 1000)
DISTANCES = (2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512, 1024, 2048, 4096)
# Tracer templates: ("abs", x) a fixed K position (x < 0: from the end); ("a", o) / ("b", o) an
# offset from the pair's first / second element; ("d", f) a + f * d for the pair's distance d.
# Adjacent pairs (m, m+1): the lane prefix (a-1), later elements of the next lanes at offsets
# 2^j + 1 (one lands in the chunk after b's for every chunk <= 128), the ends of K.
ADJACENT = {"fp16": (("abs", 0), ("a", -1), ("a", 2), ("a", 3), ("a", 5), ("a", 9), ("a", 17), ("a", 33),
                     ("a", 65), ("a", 129), ("abs", -1)),
            "bf16": (("abs", 0), ("a", -1), ("a", 2), ("a", 3), ("a", 9), ("a", 33), ("a", 129), ("abs", -1))}
# Distance pairs (a, a+d): same lane or not (d a multiple of the lane period), which lanes a
# butterfly puts with a (a+1, a+d/2, a+2d, a+4d), the chain after b (b+1).
DISTANT = {"fp16": (("abs", 0), ("a", 1), ("d", 0.5), ("b", -1), ("b", 1), ("d", 2), ("d", 4), ("abs", -1),
                    ("a", -1), ("d", 1.5), ("d", 3)),
           "bf16": (("abs", 0), ("a", 1), ("d", 0.5), ("b", -1), ("b", 1), ("d", 2), ("d", 4), ("abs", -1))}


def n_tracers(dtype: str) -> int:
    """Tracers per experiment: the output type's significant bits (every subset sum exact)."""
    return len(ADJACENT[dtype])


def e_low(dtype: str) -> int:
    return E_TOP - n_tracers(dtype) + 1


def tracer_values(dtype: str) -> np.ndarray:
    """r_i = 2^(E_LOW + i): fp16 2^-21 .. 2^-11 (subnormal below 2^-14, still exact), bf16 2^-18 .. 2^-11."""
    return 2.0 ** (e_low(dtype) + np.arange(n_tracers(dtype)))


def _place(templ, k: int, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    d = b - a
    cols = []
    for kind, x in templ:
        if kind == "abs":
            cols.append(np.full_like(a, x if x >= 0 else k + x))
        elif kind == "a":
            cols.append(a + x)
        elif kind == "b":
            cols.append(b + x)
        else:
            cols.append(a + np.floor(d * x).astype(np.int64))
    t = np.stack(cols, 1)
    t[(t < 0) | (t >= k) | (t == a[:, None]) | (t == b[:, None])] = -1
    for i in range(1, t.shape[1]):          # a position twice: keep the first tracer there
        t[:, i][(t[:, :i] == t[:, i:i + 1]).any(1) & (t[:, i] >= 0)] = -1
    return t


def design(k: int, dtype: str, marks=()) -> tuple[np.ndarray, np.ndarray]:
    """(pairs (E, 2), tracers (E, T), -1 where a tracer is left out) for a gemv of length k.

    Adjacent pairs (m, m+1) at every m < HEAD, at each m in `marks` (the caller's candidate part
    boundaries: split spans), over the last 64 positions and every k // 256; distance pairs
    (a, a+d) for a in ANCHORS and at k // 2, d in DISTANCES."""
    if k < 3:
        raise ValueError("a designed gemv needs k >= 3")
    m = set(range(min(k - 1, HEAD))) | set(range(max(0, k - 65), k - 1)) | set(range(0, k - 1, max(1, k // 256)))
    m |= {int(x) for x in marks if 0 <= x < k - 1}
    m = np.array(sorted(m), np.int64)
    adj = _place(ADJACENT[dtype], k, m, m + 1)
    anchors = sorted(set(ANCHORS) | {k // 2})
    pa = np.array([(a, a + d) for a in anchors for d in DISTANCES if a + d < k], np.int64).reshape(-1, 2)
    far = _place(DISTANT[dtype], k, pa[:, 0], pa[:, 1])
    pairs = np.concatenate([np.stack([m, m + 1], 1), pa])
    return pairs, np.concatenate([adj, far])


def digest(pairs: np.ndarray, tracers: np.ndarray) -> str:
    """A short name of a design: the record keeps it, the fit checks it rebuilt the same one."""
    return hashlib.sha256(np.ascontiguousarray(pairs).tobytes() + np.ascontiguousarray(tracers).tobytes()).hexdigest()[:16]


def entries(pairs: np.ndarray, tracers: np.ndarray, dtype: str):
    """(row, k, value) of every nonzero of the experiments' matrix rows (float64 values)."""
    E, T = tracers.shape
    rows = [np.arange(E), np.arange(E)]
    cols = [pairs[:, 0], pairs[:, 1]]
    vals = [np.full(E, L_VALUE), np.full(E, -L_VALUE)]
    for i, v in enumerate(tracer_values(dtype)):
        keep = tracers[:, i] >= 0
        rows.append(np.flatnonzero(keep))
        cols.append(tracers[keep, i])
        vals.append(np.full(int(keep.sum()), v))
    return np.concatenate(rows), np.concatenate(cols), np.concatenate(vals)


def dense_rows(k: int, pairs: np.ndarray, tracers: np.ndarray, dtype: str) -> np.ndarray:
    """The experiments as float64 rows (E, k), for the CPU twin."""
    r, c, v = entries(pairs, tracers, dtype)
    out = np.zeros((len(pairs), k))
    out[r, c] = v
    return out


def bias_case(dtype: str) -> tuple[float, float]:
    """(h, expected with the bias in fp32 before the rounding): the row holds 1 at k = 0 and h at
    k - 1, the bias is h. 1 + h is a tie of the output type: "acc" gives 1 + 2h exactly,
    "out" rounds 1 + h to 1 (even), then 1 + h to 1 again."""
    h = 2.0 ** (-11 if dtype == "fp16" else -8)
    return h, 1 + 2 * h


def decode(bits, dtype: str) -> np.ndarray:
    """Output bits (int16) -> tracer masks; -1 where the output is not a sum of tracers (then no
    order of the model made it)."""
    raw = np.asarray(bits, np.int64).astype(np.int16).view(np.uint16)
    if dtype == "fp16":
        x = raw.view(np.float16).astype(np.float64)
    else:
        import ml_dtypes
        x = raw.view(ml_dtypes.bfloat16).astype(np.float64)
    q = x / 2.0 ** e_low(dtype)
    ok = np.isfinite(q) & (q >= 0) & (q < 2 ** n_tracers(dtype)) & (q == np.floor(q))
    return np.where(ok, np.where(ok, q, 0).astype(np.int64), -1)


# -- the bits an order gives, read off its tree ----------------------------------------------------

@functools.lru_cache(maxsize=4096)
def _first_meet(fold: str, n: int):
    """(meet (n, n): the combine where i and j first share a node, -1 for i == j; members
    (C + 1, n): the leaves of each combine's node, a last all-False row for -1)."""
    member = np.eye(n, dtype=bool)
    meet = np.full((n, n), -1, np.int64)
    rows = []
    for c, (dst, src) in enumerate(simt.schedule(fold, n)):
        new = np.outer(member[dst], member[src])
        meet[new | new.T] = c                 # dst's and src's leaves are disjoint: first meeting
        member[dst] |= member[src]
        rows.append(member[dst].copy())
    rows.append(np.zeros(n, bool))
    return meet, np.array(rows)


def locate(order: simt.GemvOrder, k: int) -> tuple[np.ndarray, np.ndarray]:
    """(part, lane) of every K position 0..k-1 under `order` (simt's contract, steps 1 and 2)."""
    span = order.span or k
    pos = np.arange(k)
    part = pos // span
    chunk = np.array([order.chunk_of(e - s) for s, e in order.parts(k)])[part]
    return part, ((pos - part * span) // chunk) % order.lanes


def tracer_bits(order: simt.GemvOrder, k: int, pairs: np.ndarray, tracers: np.ndarray, lanes_known=True):
    """(survives (E, T), known (E, T)): does tracer i outlive the meeting of the pair. known is
    all True; with lanes_known=False, only the entries that the span and the merge decide alone
    (the pair in two parts, or the tracer in another part than the pair) are marked known."""
    part, lane = locate(order, k)
    a, b = pairs[:, 0], pairs[:, 1]
    valid = tracers >= 0
    t = np.where(valid, tracers, 0)
    pa, pb, pt = part[a], part[b], part[t]
    pmeet, pmem = _first_meet(order.merge, int(part[-1]) + 1)
    cross = (pa != pb)[:, None]
    lost_cross = pmem[pmeet[pa, pb][:, None], pt]
    in_part = pt == pa[:, None]
    if lanes_known:
        la, lb, lt = lane[a], lane[b], lane[t]
        lmeet, lmem = _first_meet(order.fold, order.lanes)
        lost_fold = in_part & lmem[lmeet[la, lb][:, None], lt]
        before = t <= np.maximum(a, b)[:, None]
        if order.block:                   # chains banked per block: the later one's whole block joins
            local = np.arange(k) - part * (order.span or k)
            blk = np.concatenate([order.block_of(local[s:e], e - s) for s, e in order.parts(k)])
            ba, bb, bt = blk[a][:, None], blk[b][:, None], blk[t]
            before = np.where(ba == bb, (bt == ba) & before, bt <= np.maximum(ba, bb))
        lost_chain = in_part & (lt == la[:, None]) & before
        lost = np.where(cross, lost_cross, np.where((la == lb)[:, None], lost_chain, lost_fold))
        known = np.ones_like(valid)
    else:
        lost = np.where(cross, lost_cross, False)
        known = cross | ~in_part | ~valid
    return valid & ~lost, known


def predict(order: simt.GemvOrder, k: int, pairs: np.ndarray, tracers: np.ndarray) -> np.ndarray:
    """The tracer masks (E,) that `order` gives: what decode() reads off its output bits."""
    surv, _ = tracer_bits(order, k, pairs, tracers)
    return (surv.astype(np.int64) << np.arange(tracers.shape[1])).sum(1)


def mask_bits(masks: np.ndarray, T: int) -> np.ndarray:
    """Masks (E,) -> bits (E, T)."""
    return (np.asarray(masks)[:, None] >> np.arange(T)) & 1 == 1


def tree_key(order: simt.GemvOrder, k: int, intern: dict) -> int:
    """A name of the order's summation tree over the K positions, equal for two orders exactly when
    they add the same values in the same (unordered: fp add commutes) binary tree; empty lanes and
    the chains' +0 start drop out, adding +0 being exact. `intern` must be shared by the orders
    compared. A Python loop over K: for the few orders a fit keeps, and for tests."""
    def node(x, y):
        if x is None or y is None:
            return y if x is None else x
        return intern.setdefault((min(x, y), max(x, y)), k + len(intern))
    parts = []
    for s, e in order.parts(k):
        lane = order.lane_of(e - s)
        accs, bank, last = [None] * order.lanes, [None] * order.lanes, [0] * order.lanes
        for i, t in enumerate(lane.tolist()):
            b = order.block_of(i, e - s) if order.block else 0
            if order.block and b != last[t]:  # the lane opens a block: its chain is banked
                bank[t], accs[t], last[t] = node(bank[t], accs[t]), None, b
            accs[t] = node(accs[t], s + i)
        accs = [node(x, y) for x, y in zip(bank, accs)]
        for dst, src in simt.schedule(order.fold, order.lanes):
            accs[dst] = node(accs[dst], accs[src])
        parts.append(accs[0])
    for dst, src in simt.schedule(order.merge, len(parts)):
        parts[dst] = node(parts[dst], parts[src])
    return parts[0]
