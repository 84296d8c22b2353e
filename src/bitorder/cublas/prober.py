"""The prober's CPU side: test candidate descriptors against what a GPU recorded.

A survey record (benchmarks/survey_cublas.py) holds, for one call: the cuBLASLt
answer the call ran (from cuBLAS's own log), +L/-L/r walks along K, and sampled
output bits for seeded draws (bitorder.draws), which the CPU rebuilds element by
element. A candidate GEMMDesc survives a record when the CPU twin reproduces the
walks code for code and the sampled bits byte for byte; elimination keeps the
candidates that survive every record of an answer (paper section 4).

Everything here runs without a GPU, against recorded data or a simulated black box.
"""
from __future__ import annotations

import gzip
import json
from typing import Iterable

import numpy as np

from ..desc import GEMMDesc
from ..draws import numpy_draw
from ..emulate import accumulate, epilogue, np_dtype
from . import walks as W

TID_A, TID_B, TID_BIAS = 1, 2, 3  # the survey's tensor ids for A, B and the bias


def load_records(path: str) -> list[dict]:
    """The JSON lines of a survey file (.jsonl or .jsonl.gz)."""
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        return [json.loads(line) for line in f if line.strip()]


def operand_rows(case: dict, seed: int, kind: str, which: str, batch: int, idx) -> np.ndarray:
    """Rows of A (idx: row indices) or columns of B (idx: column indices) of a survey call,
    rebuilt from the draw's hash, as float64 (len(idx), K), whatever the operand's layout."""
    M, N, K, B = case["m"], case["n"], case["k"], case["batch"]
    if which == "a":
        rows, cols, trans, tid = M, K, case["layout"][0] == "t", TID_A
    else:
        rows, cols, trans, tid = K, N, case["layout"][1] == "t", TID_B
    sc = rows if trans else cols                     # the stored row length
    base = batch * rows * cols if B > 1 else 0
    i = np.asarray(idx)[:, None]
    k = np.arange(K)[None, :]
    if which == "a":
        flat = base + (k * sc + i if trans else i * sc + k)
    else:
        flat = base + (i * sc + k if trans else k * sc + i)
    return numpy_draw(None, case["dtype"], seed, tid, kind, index=flat).astype(np.float64)


def sample_mismatches(record: dict, desc: GEMMDesc, kind: str = "narrow") -> int:
    """How many sampled output elements the CPU twin of `desc` gets wrong (0: all bytes equal)."""
    case = record["case"]
    s = record["samples_" + kind]
    seed = record["seed"] + (1 if kind == "wide" else 0)
    bias = None
    if case["op"] == "linear_bias":
        bias = numpy_draw(None, case["dtype"], seed, TID_BIAS, kind, index=np.array(s["cols"])).astype(np.float64)
    bad = 0
    for bi, b in enumerate(s["batches"]):
        a = operand_rows(case, seed, kind, "a", b, s["rows"])
        bc = operand_rows(case, seed, kind, "b", b, s["cols"])
        acc = accumulate(a, bc.T, desc, bias)
        out = epilogue(acc, desc, case["dtype"], bias)
        got = out.view(np.int16 if out.itemsize == 2 else np.int32)
        bad += int((got != np.array(s["bits"][bi], dtype=got.dtype)).sum())
    return bad


def walk_codes(record: dict, which: str) -> dict:
    """{position: code} of a recorded walk (which: 'small' or 'edge'), positions rebuilt as the survey chose them."""
    c = record["case"]
    runs = record.get("walk_" + which)
    if runs is None:
        return {}
    use_rows = c["m"] >= 8 or c["m"] >= c["n"]
    cap = c["m"] if use_rows else c["n"]
    codes = {}
    it = iter(runs)
    cur = next(it, None)
    for m in W.walk_positions(c["k"], max(256, cap * 24)):
        if not 0 < m < c["k"] - 1:
            continue
        while cur is not None and m > cur[2]:
            cur = next(it, None)
        if cur is not None and cur[1] <= m <= cur[2]:
            codes[m] = cur[0]
    return codes


def predicted_walk(desc: GEMMDesc, positions: Iterable[int], r: float, out_dtype: str) -> dict:
    """The codes the CPU twin of `desc` gives for a walk (a zero bias where the epilogue has one)."""
    positions = list(positions)
    rows = W.pair_rows(desc.k, positions, r)
    bias = np.zeros(1) if any(s.startswith("bias") for s in desc.epilogue) else None
    acc = accumulate(rows, np.ones((desc.k, 1)), desc, bias)
    out = epilogue(acc, desc, out_dtype, bias)[:, 0].astype(np.float64)
    return dict(zip(positions, W.code(out, r).tolist()))


def walk_mismatches(record: dict, desc: GEMMDesc, max_work: float = 3e7) -> int | None:
    """Positions where the twin's walks disagree with the recorded ones; None if too costly or unrecorded."""
    total, seen = 0, False
    for which, r in (("small", W.R_SMALL), ("edge", W.R_EDGE)):
        codes = walk_codes(record, which)
        if not codes:
            continue
        if len(codes) * desc.k > max_work:
            return None
        seen = True
        pred = predicted_walk(desc, sorted(codes), r, record["case"]["dtype"])
        total += sum(pred[m] != codes[m] for m in codes)
    return total if seen else None


def eliminate(records: list[dict], candidates: dict) -> dict:
    """{name: surviving?} for candidate descriptor makers (record -> GEMMDesc) over records."""
    alive = dict.fromkeys(candidates, True)
    for rec in records:
        for name, make in candidates.items():
            if not alive[name]:
                continue
            d = make(rec)
            ok = all(sample_mismatches(rec, d, kind) == 0 for kind in ("narrow", "wide") if "samples_" + kind in rec)
            wm = walk_mismatches(rec, d)
            alive[name] = ok and (wm is None or wm == 0)
    return alive
