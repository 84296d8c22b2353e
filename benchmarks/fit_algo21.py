"""Replay cuBLAS algorithm 21's serial split-K calls (reduction scheme 1) against a family of orders.

F.linear(x, w, bias) with K 200,000-460,000 and a short N makes cuBLASLt answer algorithm 21 with
REDUCTION_SCHEME_INPLACE (serial split-K): cuBLAS launches `Memset (Device)` (the semaphores: the
heuristic's workspace_size is 4 bytes per output tile) and one
cutlass::Kernel2<cutlass_80_tensorop_{bf16,f16}_s16816gemm_relu_{bf16,f16}_*_64x{3,6}_*_align8>,
whose s partitions of K meet serially in the output. The profile's entry algo21-wmma-splitk-serial
covers the wmma 128x2 kernel only (bias in the first part); the s16816 "relu" kernels fell back.

This script regenerates every algorithm-21 record's sampled operands exactly as the survey drew them
(bitorder.cublas.prober.operand_rows: the survey's seeded hash draws, narrow and wide), and:

 1. validates the replay: the CPU twin (bitorder.emulate) of the profile's descriptor reproduces the
    sampled bits of every algorithm-21 record the profile explains (scheme 2 with fp32 partials, the
    wmma 128x2 serial kernel), plus the algorithm 23/24 serial split records of the surveys; and this
    file's vectorized chain engine (the same tensor-core step as emulate.tensorcore.mma_step, run for
    all partitions at once) reproduces the twin's per-partition accumulators bit for bit;
 2. fits the s16816 serial records (and, as a control, the wmma 128x2 ones) against a family of
    serial split-K orders, each checked against the sampled bits (narrow and wide) and the recorded
    +L/-L/r walks (a sparse replay: a walk row has three nonzeros):
      partition: span = round_up(ceil(K/s), g), g in 8/64/128 (CUTLASS's gemm_k_size with kAlignK),
        the last part shorter ("ceil"), or s parts of round_up(floor(K/s), g) with the last taking
        the rest ("floor_rest");
      K loop per partition: mma.sync k16 (or k8) groups, the short turn last, or first with k_step
        16/32/64/128 (CUTLASS's residue-first prologue);
      merge: "added" (each partition's tile accumulator starts at 0 and the epilogue computes
        alpha*acc + beta*C with C the previous partition's output; fma(alpha, acc, beta*C) or
        alpha*acc then + beta*C) or "seeded" (the accumulator starts from the previous output, or
        from the bias); the running output stored in the output type or in fp32 (rounded once at
        the end); partitions met in K order or reversed; the first partition's C not read (beta 0)
        or read as the memset's +0 (beta 1);
      bias: none, in the first partition ((acc + bias), or the seed), in the last ((acc + C) + bias,
        acc + (C + bias), (acc + bias) + C), in every partition, or added to the rounded output.
 3. prints which variants reproduce every record, the first failure of the others, and a table of
    mismatch counts for named variants; writes a JSON summary.

    python benchmarks/fit_algo21.py [--out benchmarks/results/2026-12-01e-ground/fit_algo21.json] [--twin all|targets|none]
"""
from __future__ import annotations

import argparse
import glob
import json
import os
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "src"))
from bitorder.cublas import walks as W  # noqa: E402
from bitorder.cublas.prober import (TID_BIAS, describe_record, load_records, operand_rows,  # noqa: E402
                                    sample_mismatches, walk_codes)
from bitorder.cublas.profile import ArchProfile  # noqa: E402
from bitorder.desc import GEMMDesc  # noqa: E402
from bitorder.draws import numpy_draw  # noqa: E402
from bitorder.emulate import accumulate  # noqa: E402
from bitorder.emulate import tensorcore as tc  # noqa: E402
from bitorder.emulate.gemm import round_to, to_format  # noqa: E402
from bitorder.math import fma32  # noqa: E402

RESULTS = os.path.join(HERE, "results")
EMIN = {"fp16": -14, "bf16": -126}          # tensorcore.STEP's minimum normal exponents
F = 25                                       # fraction bits the fp16/bf16 step keeps below Emax
F32 = np.float32
KINDS = ("narrow", "wide")


# -- records ---------------------------------------------------------------------------------------

def survey_records() -> list:
    """Every survey record of the results folders that names the answer it ran, tagged with its source."""
    out = []
    for path in sorted(glob.glob(os.path.join(RESULTS, "*", "survey*.jsonl.gz"))):
        if "fp8" in path:
            continue
        for i, r in enumerate(load_records(path)):
            if r.get("ran") and "samples_narrow" in r:
                r["_src"] = f"{path.split(os.sep)[-2]}/{os.path.basename(path)}#{i}"
                out.append(r)
    return out


def is_algo21_serial(r) -> bool:
    a = r["ran"][0]
    return a["algo_id"] == 21 and a["split_k"] > 1 and a["reduction_scheme"] == 1


def is_relu_kernel(r) -> bool:
    return any("s16816gemm_relu" in k for k in r.get("kernels", []))


def draw(rec: dict, kind: str):
    """The sampled rows of A (R, K), columns of B as rows (C, K), the bias at those columns (or None),
    and the recorded output bits (R, C) of one draw, as the survey drew them."""
    c, s = rec["case"], rec["samples_" + kind]
    assert c["batch"] == 1 and s["batches"] == [0]
    seed = rec["seed"] + (1 if kind == "wide" else 0)
    a = operand_rows(c, seed, kind, "a", 0, s["rows"])
    b = operand_rows(c, seed, kind, "b", 0, s["cols"])
    bias = None
    if c["op"] == "linear_bias":
        bias = numpy_draw(None, c["dtype"], seed, TID_BIAS, kind, index=np.array(s["cols"])).astype(np.float64)
    return a, b, bias, np.array(s["bits"][0], dtype=np.int16)


# -- structure: partitions of K and the groups each partition's K loop issues --------------------

def partitions(K: int, s: int, g: int, rule: str) -> list:
    """(start, stop) of each partition, in K order."""
    if rule == "ceil":        # CUTLASS GemmUniversal: gemm_k_size = round_up(ceil(K/s), kAlignK)
        span = -(-(-(-K // s)) // g) * g
        return [(i * span, min(K, (i + 1) * span)) for i in range(-(-K // span))]
    span = -(-(K // s) // g) * g   # floor_rest: s parts of round_up(floor(K/s), g), the last takes the rest
    if (s - 1) * span >= K:
        return []
    return [(i * span, K if i == s - 1 else (i + 1) * span) for i in range(s)]


def k_groups(start: int, stop: int, L: int, tail: str, step) -> list:
    """As bitorder.emulate.gemm.k_groups: instruction groups over [start, stop), short turn first or last."""
    edges, pos = [], start
    if tail == "first":
        res = (stop - start) % step
        if res:
            edges += [(x, min(x + L, start + res)) for x in range(start, start + res, L)]
            pos = start + res
    return edges + [(x, min(x + L, stop)) for x in range(pos, stop, L)]


STRUCTURES = []
for _g in (8, 64, 128):
    for _rule in ("ceil", "floor_rest"):
        for _L in (16, 8):
            for _tail, _step in [("last", None)] + [("first", x) for x in (16, 32, 64, 128)]:
                if _step is None or _step % _L == 0:
                    STRUCTURES.append({"granule": _g, "rule": _rule, "ik": _L, "tail": _tail, "k_step": _step})


def sname(st) -> str:
    tail = "last" if st["tail"] == "last" else f"first/{st['k_step']}"
    return f"g{st['granule']}-{st['rule']}-k{st['ik']}-{tail}"


# -- the dense engine: every partition's chain at once, for the sampled outputs -------------------

def _rtz_f32(s):
    f = s.astype(F32)
    over = np.abs(f.astype(np.float64)) > np.abs(s)
    return np.where(over, np.nextafter(f, F32(0)), f) if over.any() else f


def mma_steps(prod, ep, acc):
    """One tensor-core step per output (tensorcore.mma_step for finite fp16/bf16 values): prod (..., L)
    exact products, ep (..., L) their exponents (E_ZERO for a zero product), acc (...) fp32."""
    c64 = acc.astype(np.float64)
    emax = np.maximum(ep.max(-1), tc.exponents(c64, -126))
    scale = np.ldexp(1.0, F - emax)
    terms = np.trunc(prod * scale[..., None]).sum(-1) + np.trunc(c64 * scale)
    out = _rtz_f32(terms / scale)
    out[out == 0] = 0
    return out


class Dense:
    """The sampled outputs of one record's draw: a (R, K), b (C, K); index K is a zero sentinel."""

    def __init__(self, a, b, dtype):
        R, K = a.shape
        self.K, self.R, self.C = K, R, b.shape[0]
        self.a = np.concatenate([a, np.zeros((R, 1))], 1)
        self.b = np.concatenate([b, np.zeros((self.C, 1))], 1)
        self.ea = np.concatenate([tc.exponents(a, EMIN[dtype]), np.full((R, 1), tc.E_ZERO)], 1).astype(np.int32)
        self.eb = np.concatenate([tc.exponents(b, EMIN[dtype]), np.zeros((self.C, 1))], 1).astype(np.int32)
        if not (np.isfinite(a).all() and np.isfinite(b).all()):
            raise ValueError("the dense engine models finite draws only")

    def chains(self, group_lists, L, seeds=None):
        """Run one chain per group list (the partitions) for every sampled output, all at once; a
        shorter list starts with empty steps (the identity). seeds: (R, C, P) fp32 or None (zeros).
        Returns (R, C, P) fp32."""
        P, T = len(group_lists), max(len(g) for g in group_lists)
        G = np.full((P, T, L), self.K, np.int64)
        for p, gl in enumerate(group_lists):
            off = T - len(gl)
            for t, (s, e) in enumerate(gl):
                G[p, off + t, : e - s] = np.arange(s, e)
        acc = np.zeros((self.R, self.C, P), F32) if seeds is None else np.array(seeds, F32)
        for t in range(T):
            idx = G[:, t, :]
            prod = self.a[:, idx][:, None] * self.b[:, idx][None]          # (R, C, P, L)
            ep = self.ea[:, idx][:, None] + self.eb[:, idx][None]
            acc = mma_steps(prod, ep, acc)
        return acc


# -- the sparse engine: walk rows (r at 0, +L at m, -L at m+1, B all ones) ---------------------------

class Sparse:
    """Walk rows on the partition structure: each row's chains only meet its nonzero groups (an empty
    step leaves the accumulator as it is), so a row costs a few steps whatever K."""

    def __init__(self, K, positions, r, dtype, parts, group_lists):
        pos = np.asarray(positions, np.int64)
        self.n = len(pos)
        self.idx = np.stack([np.zeros_like(pos), pos, pos + 1], 1)                # (n, 3)
        self.val = np.broadcast_to(np.array([r, W.L_VALUE, -W.L_VALUE]), self.idx.shape).astype(np.float64)
        self.exp = tc.exponents(self.val, EMIN[dtype]).astype(np.int32)          # B is ones: exponent 0
        starts = np.array([s for gl in group_lists for s, _ in gl], np.int64)
        gpart = np.array([p for p, gl in enumerate(group_lists) for _ in gl], np.int64)
        self.gid = np.searchsorted(starts, self.idx, "right") - 1                 # K order = chain order
        self.part = gpart[self.gid]
        self.first = np.ones_like(self.gid, bool)
        for j in (1, 2):
            self.first[:, j] = self.gid[:, j] != self.gid[:, j - 1]

    def chain(self, p, seed):
        """Partition p's accumulator for every row from seed (n,) fp32."""
        acc = np.array(seed, F32)
        for j in range(3):
            on = self.first[:, j] & (self.part[:, j] == p)
            if not on.any():
                continue
            same = self.gid == self.gid[:, j:j + 1]
            prod = np.where(same, self.val, 0.0)[on]
            ep = np.where(same, self.exp, tc.E_ZERO)[on]
            acc[on] = mma_steps(prod, ep, acc[on])
        return acc


# -- merges: how the partitions meet, where the bias goes --------------------------------------------

def _add(x, y):
    return (np.asarray(x, F32) + np.asarray(y, F32)).astype(F32)


MERGES = []
for _store in ("out", "fp32"):
    for _order in ("fwd", "rev"):
        for _bias in ("none", "first", "last_AC_b", "last_A_Cb", "last_Ab_C", "every_AC_b", "every_Ab_C", "out"):
            for _first in ("skip", "zero"):
                for _arith in ("fma", "mul_add"):
                    MERGES.append({"mode": "added", "store": _store, "order": _order, "bias": _bias,
                                   "first_c": _first, "arith": _arith})
        for _bias in ("none", "seed", "first", "last", "every", "out"):
            MERGES.append({"mode": "seeded", "store": _store, "order": _order, "bias": _bias})


def mname(m) -> str:
    if m["mode"] == "added":
        return f"added-{m['store']}-{m['order']}-bias:{m['bias']}-c0:{m['first_c']}-{m['arith']}"
    return f"seeded-{m['store']}-{m['order']}-bias:{m['bias']}"


def run_merge(m, chain, P, bias, out_dtype, alpha=1.0, beta=1.0):
    """The output (fp32 values of out_dtype) of partitions 0..P-1 meeting under merge m.
    chain(p, seed) -> partition p's fp32 accumulator (seed None: from zero)."""
    order = range(P) if m["order"] == "fwd" else range(P - 1, -1, -1)
    store = (lambda x: round_to(x, out_dtype)) if m["store"] == "out" else (lambda x: np.asarray(x, F32))
    b = None if bias is None else np.asarray(bias, F32)
    D = None
    for n, p in enumerate(order):
        first, last = n == 0, n == P - 1
        if m["mode"] == "seeded":
            seed = D if D is not None else (np.broadcast_to(b, chain(p, None).shape) if (m["bias"] == "seed" and b is not None) else None)
            x = chain(p, seed)
            if b is not None and ((m["bias"] == "first" and first) or (m["bias"] == "last" and last) or m["bias"] == "every"):
                x = _add(x, b)
        else:
            acc = chain(p, None)
            pos = m["bias"]
            add_b = b is not None and (pos.startswith("every") or (pos == "first" and first)
                                       or (pos.startswith("last") and last))
            form = "Ab_C" if pos == "first" else (pos.split("_", 1)[1] if "_" in pos else None)
            C = D if D is not None else (np.zeros_like(acc) if m["first_c"] == "zero" else None)
            if add_b and form == "Ab_C":       # (acc + bias) + C
                acc, add_b = _add(acc, b), False
            if add_b and form == "A_Cb":       # acc + (C + bias)
                C, add_b = (b if C is None else _add(C, b)), False
            if C is None:                      # beta = 0: CUTLASS's epilogue does not read the source
                x = (F32(alpha) * np.asarray(acc, F32)).astype(F32)
            elif m["arith"] == "fma":          # CUTLASS LinearCombination: fma(alpha, acc, beta * C)
                x = fma32(F32(alpha), acc, (F32(beta) * np.asarray(C, F32)).astype(F32))
            else:                              # alpha * acc, then + beta * C
                x = _add((F32(alpha) * np.asarray(acc, F32)).astype(F32), (F32(beta) * np.asarray(C, F32)).astype(F32))
            if add_b:                          # (acc + C) + bias
                x = _add(x, b)
        D = store(x)
    out = round_to(D, out_dtype)
    if m["bias"] == "out" and b is not None:
        out = round_to(_add(out, b), out_dtype)
    return out


# -- checks: one record's sampled draws and walks under a (structure, merge) -----------------------

class RecordReplay:
    """Caches one record's operands, per-structure partials and walk engines."""

    def __init__(self, rec):
        self.rec, self.c = rec, rec["case"]
        self.dtype, self.K, self.s = self.c["dtype"], self.c["k"], rec["ran"][0]["split_k"]
        self._dense, self._zero, self._sparse = {}, {}, {}
        self._walk_codes = {w: walk_codes(rec, w) for w in ("small", "edge")}

    def structure(self, st):
        parts = partitions(self.K, self.s, st["granule"], st["rule"])
        return parts, [k_groups(a, b, st["ik"], st["tail"], st["k_step"]) for a, b in parts]

    def dense(self, kind):
        if kind not in self._dense:
            a, b, bias, want = draw(self.rec, kind)
            self._dense[kind] = (Dense(a, b, self.dtype), bias, want)
        return self._dense[kind]

    def samples(self, st, m, kind):
        """Mismatching sampled elements of one draw (0: every byte equal)."""
        parts, gls = self.structure(st)
        if not parts:
            return -1
        eng, bias, want = self.dense(kind)
        key = (sname(st), kind)
        if key not in self._zero:
            self._zero[key] = eng.chains(gls, st["ik"])
        zero = self._zero[key]

        def chain(p, seed):
            if seed is None:
                return zero[..., p]
            return eng.chains([gls[p]], st["ik"], np.asarray(seed, F32)[..., None])[..., 0]
        out = run_merge(m, chain, len(parts), bias, self.dtype)
        got = to_format(out, self.dtype).view(np.int16)
        return int((got != want).sum())

    def walks(self, st, m):
        """Walk positions the variant gets wrong (zero bias, as the survey walked), None if unrecorded."""
        parts, gls = self.structure(st)
        if not parts:
            return -1
        total, seen = 0, False
        for which, r in (("small", W.R_SMALL), ("edge", W.R_EDGE)):
            codes = self._walk_codes[which]
            if not codes:
                continue
            seen = True
            key = (sname(st), which)
            if key not in self._sparse:
                pos = sorted(codes)
                sp = Sparse(self.K, pos, r, self.dtype, parts, gls)
                zero = np.zeros(sp.n, F32)
                self._sparse[key] = (sp, [sp.chain(p, zero) for p in range(len(parts))],
                                     np.array([codes[x] for x in pos]))
            sp, zeros, want = self._sparse[key]
            bias = np.zeros(1) if self.c["op"] == "linear_bias" else None
            out = run_merge(m, lambda p, seed: zeros[p] if seed is None else sp.chain(p, np.asarray(seed, F32).reshape(-1)),
                            len(parts), bias, self.dtype)
            total += int((W.code(np.asarray(out, np.float64).reshape(-1), r) != want).sum())
        return total if seen else None


def fit(replays, structures, merges, log=print):
    """{(structure, merge): None if it reproduces every record, else (record, check, mismatches)}:
    each variant dies at its first failing check (walks first, then narrow and wide samples)."""
    verdict = {}
    for st in structures:
        alive = list(range(len(merges)))
        for rp in replays:
            for check in ("walks", "narrow", "wide"):
                still = []
                for i in alive:
                    n = rp.walks(st, merges[i]) if check == "walks" else rp.samples(st, merges[i], check)
                    if n in (0, None):
                        still.append(i)
                    else:
                        verdict[(sname(st), mname(merges[i]))] = (rp.rec["_src"], check, n)
                alive = still
                if not alive:
                    break
            if not alive:
                break
        for i in alive:
            verdict[(sname(st), mname(merges[i]))] = None
        log(f"  {sname(st):32s} {len(alive):3d} of {len(merges)} merges survive", flush=True)
    return verdict


# -- validation: the twin on records the profile explains; the engine against the twin --------------

def twin_validation(records, profile, log=print):
    """(record, narrow mismatches, wide mismatches) of the twin of the profile's descriptor."""
    rows = []
    for r in records:
        d = describe_record(profile, r)
        if d is None:
            continue
        t = time.time()
        n, w = sample_mismatches(r, d, "narrow"), sample_mismatches(r, d, "wide")
        rows.append({"record": r["_src"], "answer": _answer(r), "desc": str(d), "narrow": n, "wide": w})
        log(f"  twin {r['_src']:55s} {_answer(r):34s} narrow {n} wide {w} ({time.time() - t:.0f} s)", flush=True)
    return rows


def engine_vs_twin(rp, st, parts_to_check=3, log=print):
    """The dense engine's per-partition accumulators against the twin's chains (a plain descriptor on
    each partition's slice of K, from zero): the number of differing fp32 values."""
    parts, gls = rp.structure(st)
    bad = 0
    for kind in KINDS:
        a, b, _, _ = draw(rp.rec, kind)
        eng = rp.dense(kind)[0]
        zero = eng.chains(gls, st["ik"])
        for p in sorted({0, 1, len(parts) - 1} | set(range(min(parts_to_check, len(parts))))):
            s, e = parts[p]
            d = GEMMDesc("plain", rp.dtype, e - s, "mma_sync", st["ik"], k_tail=st["tail"], k_step=st["k_step"])
            ref = accumulate(a[:, s:e], b[:, s:e].T, d)
            bad += int((ref.view(np.int32) != zero[..., p].view(np.int32)).sum())
    log(f"  engine vs twin {rp.rec['_src']}: {bad} differing partition accumulators", flush=True)
    return bad


def engine_profile_check(rp, profile, log=print):
    """The engine's replay of the profile's own descriptor for a record it explains (serial_added with
    the bias in the first part, or fp32 partials summed in K order): mismatches over both draws."""
    d = describe_record(profile, rp.rec)
    st = {"granule": 0, "ik": d.instruction_k, "tail": d.k_tail, "k_step": d.k_step}
    parts = d.outer_parts()
    gls = [k_groups(a, b, d.instruction_k, d.k_tail, d.k_step) for a, b in parts]
    bad = 0
    for kind in KINDS:
        eng, bias, want = rp.dense(kind)
        zero = eng.chains(gls, st["ik"])
        if d.merge_order == "serial_added":
            m = {"mode": "added", "store": "out", "order": "fwd", "bias": "first", "first_c": "skip", "arith": "fma"}
            out = run_merge(m, lambda p, seed: zero[..., p], len(parts), bias, rp.dtype)
        else:
            assert d.merge_order == "sequential" and d.partial_dtype == "fp32" and bias is None
            out = zero[..., 0]
            for p in range(1, len(parts)):
                out = _add(out, zero[..., p])
            out = round_to(out, rp.dtype)
        bad += int((to_format(out, rp.dtype).view(np.int16) != want).sum())
    log(f"  engine(profile desc) {rp.rec['_src']:55s} {_answer(rp.rec):34s} {bad} mismatches", flush=True)
    return bad


def _answer(r) -> str:
    a, c = r["ran"][0], r["case"]
    return f"a{a['algo_id']} {a['stages']} s{a['split_k']} rs{a['reduction_scheme']} {c['dtype']} K{c['k']}"


NAMED = {
    "profile rule (bias in the first part)": ("g8-ceil-k16-first/64", "added-out-fwd-bias:first-c0:skip-fma"),
    "bias in the last part, (acc + C) + bias": ("g8-ceil-k16-first/64", "added-out-fwd-bias:last_AC_b-c0:skip-fma"),
    "bias in the last part, acc + (C + bias)": ("g8-ceil-k16-first/64", "added-out-fwd-bias:last_A_Cb-c0:skip-fma"),
    "bias in the last part, (acc + bias) + C": ("g8-ceil-k16-first/64", "added-out-fwd-bias:last_Ab_C-c0:skip-fma"),
    "bias added to the rounded output": ("g8-ceil-k16-first/64", "added-out-fwd-bias:out-c0:skip-fma"),
    "bias in every part": ("g8-ceil-k16-first/64", "added-out-fwd-bias:every_AC_b-c0:skip-fma"),
    "fp32 running sum, bias last": ("g8-ceil-k16-first/64", "added-fp32-fwd-bias:last_AC_b-c0:skip-fma"),
    "seeded, bias last": ("g8-ceil-k16-first/64", "seeded-out-fwd-bias:last"),
    "bias last, k_step 128": ("g8-ceil-k16-first/128", "added-out-fwd-bias:last_AC_b-c0:skip-fma"),
    "bias first, k_step 128": ("g8-ceil-k16-first/128", "added-out-fwd-bias:first-c0:skip-fma"),
    "bias last, tail last": ("g8-ceil-k16-last", "added-out-fwd-bias:last_AC_b-c0:skip-fma"),
    "bias last, granule 64": ("g64-ceil-k16-first/64", "added-out-fwd-bias:last_AC_b-c0:skip-fma"),
}


def table(replays, log=print):
    """Mismatches (walk positions, narrow, wide) of each named variant on every record."""
    st_by = {sname(s): s for s in STRUCTURES}
    m_by = {mname(m): m for m in MERGES}
    rows = {}
    for label, (sn, mn) in NAMED.items():
        cells = []
        for rp in replays:
            st, m = st_by[sn], m_by[mn]
            cells.append((rp.walks(st, m), rp.samples(st, m, "narrow"), rp.samples(st, m, "wide")))
        rows[label] = {"structure": sn, "merge": mn, "cells": cells}
        log(f"  {label:42s} " + " ".join(f"{w if w is not None else '-'}/{n}/{x}" for w, n, x in cells), flush=True)
    return rows


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "results", "2026-12-01e-ground", "fit_algo21.json"))
    ap.add_argument("--twin", choices=("all", "targets", "none"), default="all",
                    help="all: twin-validate every profile-explained algorithm 21/23/24 split record; "
                         "targets: only the engine-vs-twin partition check on the target records")
    args = ap.parse_args(argv)
    t0 = time.time()
    profile = ArchProfile.load()
    recs = survey_records()
    a21 = [r for r in recs if r["ran"][0]["algo_id"] == 21]
    targets = [r for r in a21 if is_algo21_serial(r) and is_relu_kernel(r)]
    control = [r for r in a21 if is_algo21_serial(r) and not is_relu_kernel(r)]
    print(f"{len(recs)} survey records; algorithm 21: {len(a21)}, serial s16816 'relu' (targets) {len(targets)}, "
          f"serial wmma 128x2 (control) {len(control)}", flush=True)
    for r in targets + control:
        print(f"  {r['_src']:55s} {_answer(r):34s} {r['case']['op']} {r['case']['m']}x{r['case']['n']} "
              f"{r['case']['layout']} {r['kernels'][-1].split('<')[-1].split('>')[0]}", flush=True)
    summary = {"targets": [r["_src"] for r in targets], "control": [r["_src"] for r in control]}

    print("\n1. validation", flush=True)
    if args.twin == "all":
        explained = [r for r in recs if r["ran"][0]["algo_id"] in (21, 23, 24) and r["ran"][0]["split_k"] > 1
                     and r["case"]["batch"] == 1 and describe_record(profile, r) is not None
                     and (r["ran"][0]["algo_id"] == 21 or r["ran"][0]["reduction_scheme"] == 1)]
        summary["twin"] = twin_validation(explained, profile)
        summary["engine_profile"] = [{"record": r["_src"], "mismatches": engine_profile_check(RecordReplay(r), profile)}
                                     for r in explained if r["ran"][0]["algo_id"] == 21]
    replays = [RecordReplay(r) for r in sorted(targets, key=lambda r: r["case"]["k"] * r["ran"][0]["split_k"])]
    ctrl = [RecordReplay(r) for r in control]
    if args.twin != "none":
        st0 = next(s for s in STRUCTURES if sname(s) == "g8-ceil-k16-first/64")
        summary["engine_vs_twin"] = [{"record": rp.rec["_src"], "differing": engine_vs_twin(rp, st0)}
                                     for rp in replays[:3]]

    print(f"\n2. fit: {len(STRUCTURES)} structures x {len(MERGES)} merges", flush=True)
    print(" targets (s16816 relu serial):", flush=True)
    verdict = fit(replays, STRUCTURES, MERGES)
    print(" control (wmma 128x2 serial):", flush=True)
    cverdict = fit(ctrl, STRUCTURES, MERGES)
    surv = sorted(k for k, v in verdict.items() if v is None)
    csurv = sorted(k for k, v in cverdict.items() if v is None)
    print(f"\n3. variants reproducing all {len(replays)} target records (walks, narrow, wide): {len(surv)}")
    for s_, m_ in surv:
        print(f"  {s_:32s} {m_}")
    print(f"   control: variants reproducing all {len(ctrl)} wmma 128x2 records: {len(csurv)}")
    for s_, m_ in csurv:
        print(f"  {s_:32s} {m_}")
    deaths = {}
    for (s_, m_), v in verdict.items():
        if v is not None:
            deaths.setdefault(v[1], 0)
            deaths[v[1]] += 1
    print(f"   first failures by check (targets): {deaths}")
    print("\n named variants on each target record (walk positions / narrow / wide mismatches of 96 or so):")
    named = table(replays)
    print(" and on the control records:")
    cnamed = table(ctrl)
    summary.update(survivors=[list(x) for x in surv], control_survivors=[list(x) for x in csurv],
                   first_failures=deaths, named=named, control_named=cnamed,
                   verdicts={f"{k[0]} {k[1]}": v for k, v in verdict.items()},
                   seconds=round(time.time() - t0))
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w") as f:
        json.dump(summary, f, indent=1)
    print(f"\nwrote {args.out} ({time.time() - t0:.0f} s)")


if __name__ == "__main__":
    main()
