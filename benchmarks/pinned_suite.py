"""Pinned reductions on the GPU: invariance over each kernel's autotune space, and speed.

Twelve kernels, each with a PINNED switch, run over num_warps x num_stages x the block of
the kept axis x aligned / unaligned pointers. A kernel passes when every configuration's
pinned output is byte-identical (and, for the pure sums and the two sums of products, equal
to bitorder.emulate's CPU reference: fp32 products rounded to nearest, then the pinned tree),
while the free-order outputs are shown to differ. Speed: the best pinned time over the best
free time, each mode tuned over the same space. Writes pinned.json and pinned.png.

With --jobs N > 1, phase 1 runs every configuration of every case once, untimed, in N
spawned worker processes sharing the GPU (digests, CPU reference; Triton's JIT compiles in
parallel and fills its disk cache); phase 2 times each configuration with do_bench in the
main process, one after another. --budget S lists the cases not started in time under
not_reached (and, with --jobs, those checked but not timed in time under not_timed).

    python benchmarks/pinned_suite.py --out DIR [--quick] [--jobs N] [--budget S] [--rep MS] [--kernels A,B]
"""
from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import multiprocessing
import os
import signal
import sys
import time

import numpy as np
import torch
import triton
import triton.language as tl

import bitorder  # noqa: F401  (installs pinned=)
from bitorder.emulate import pinned_sum


@triton.jit
def row_sum(x_ptr, y_ptr, R, C: tl.constexpr, BR: tl.constexpr, PINNED: tl.constexpr):
    r = tl.program_id(0) * BR + tl.arange(0, BR)
    x = tl.load(x_ptr + r[:, None] * C + tl.arange(0, C)[None, :], mask=r[:, None] < R, other=0.0)
    tl.store(y_ptr + r, tl.sum(x, axis=1, pinned=PINNED), mask=r < R)


@triton.jit
def col_sum(x_ptr, y_ptr, R: tl.constexpr, C, BC: tl.constexpr, PINNED: tl.constexpr):
    c = tl.program_id(0) * BC + tl.arange(0, BC)
    x = tl.load(x_ptr + tl.arange(0, R)[:, None] * C + c[None, :], mask=c[None, :] < C, other=0.0)
    tl.store(y_ptr + c, tl.sum(x, axis=0, pinned=PINNED), mask=c < C)


@triton.jit
def mid_sum(x_ptr, y_ptr, A, B: tl.constexpr, C: tl.constexpr, BA: tl.constexpr, PINNED: tl.constexpr):
    a = tl.program_id(0) * BA + tl.arange(0, BA)
    i = a[:, None, None] * B * C + tl.arange(0, B)[None, :, None] * C + tl.arange(0, C)[None, None, :]
    x = tl.load(x_ptr + i, mask=a[:, None, None] < A, other=0.0)
    o = a[:, None] * C + tl.arange(0, C)[None, :]
    tl.store(y_ptr + o, tl.sum(x, axis=1, pinned=PINNED), mask=a[:, None] < A)


@triton.jit
def dot_rows(x_ptr, w_ptr, y_ptr, R, C: tl.constexpr, BR: tl.constexpr, PINNED: tl.constexpr):
    r = tl.program_id(0) * BR + tl.arange(0, BR)
    x = tl.load(x_ptr + r[:, None] * C + tl.arange(0, C)[None, :], mask=r[:, None] < R, other=0.0)
    w = tl.load(w_ptr + tl.arange(0, C))
    tl.store(y_ptr + r, tl.sum(x * w[None, :], axis=1, pinned=PINNED), mask=r < R)


@triton.jit
def _max(a, b):
    return tl.maximum(a, b)


@triton.jit
def _rows_and_max(x_ptr, R, C: tl.constexpr, BR: tl.constexpr, PINNED: tl.constexpr):
    """A block of BR rows, their offsets and their row maxima."""
    r = tl.program_id(0) * BR + tl.arange(0, BR)
    off = r[:, None] * C + tl.arange(0, C)[None, :]
    x = tl.load(x_ptr + off, mask=r[:, None] < R, other=0.0)
    return r, off, x, tl.reduce(x, 1, _max, pinned=PINNED)


@triton.jit
def softmax(x_ptr, y_ptr, R, C: tl.constexpr, BR: tl.constexpr, PINNED: tl.constexpr):
    r, off, x, m = _rows_and_max(x_ptr, R, C, BR, PINNED)
    e = tl.exp(x - m[:, None])
    tl.store(y_ptr + off, e / tl.sum(e, axis=1, pinned=PINNED)[:, None], mask=r[:, None] < R)


@triton.jit
def log_softmax(x_ptr, y_ptr, R, C: tl.constexpr, BR: tl.constexpr, PINNED: tl.constexpr):
    r, off, x, m = _rows_and_max(x_ptr, R, C, BR, PINNED)
    lse = tl.log(tl.sum(tl.exp(x - m[:, None]), axis=1, pinned=PINNED))
    tl.store(y_ptr + off, x - m[:, None] - lse[:, None], mask=r[:, None] < R)


@triton.jit
def layernorm(x_ptr, y_ptr, R, C: tl.constexpr, BR: tl.constexpr, PINNED: tl.constexpr):
    r = tl.program_id(0) * BR + tl.arange(0, BR)
    off = r[:, None] * C + tl.arange(0, C)[None, :]
    x = tl.load(x_ptr + off, mask=r[:, None] < R, other=0.0)
    mean = tl.sum(x, axis=1, pinned=PINNED) / C
    d = x - mean[:, None]
    var = tl.sum(d * d, axis=1, pinned=PINNED) / C
    tl.store(y_ptr + off, d / tl.sqrt(var + 1e-5)[:, None], mask=r[:, None] < R)


@triton.jit
def rmsnorm(x_ptr, y_ptr, R, C: tl.constexpr, BR: tl.constexpr, PINNED: tl.constexpr):
    r = tl.program_id(0) * BR + tl.arange(0, BR)
    off = r[:, None] * C + tl.arange(0, C)[None, :]
    x = tl.load(x_ptr + off, mask=r[:, None] < R, other=0.0)
    ms = tl.sum(x * x, axis=1, pinned=PINNED) / C
    tl.store(y_ptr + off, x / tl.sqrt(ms + 1e-6)[:, None], mask=r[:, None] < R)


@triton.jit
def ln_bwd_dw(dy_ptr, xh_ptr, dw_ptr, R: tl.constexpr, C, BC: tl.constexpr, PINNED: tl.constexpr):
    c = tl.program_id(0) * BC + tl.arange(0, BC)
    off = tl.arange(0, R)[:, None] * C + c[None, :]
    dy = tl.load(dy_ptr + off, mask=c[None, :] < C, other=0.0)
    xh = tl.load(xh_ptr + off, mask=c[None, :] < C, other=0.0)
    tl.store(dw_ptr + c, tl.sum(dy * xh, axis=0, pinned=PINNED), mask=c < C)


@triton.jit
def cross_entropy(x_ptr, t_ptr, y_ptr, R, C: tl.constexpr, BR: tl.constexpr, PINNED: tl.constexpr):
    r = tl.program_id(0) * BR + tl.arange(0, BR)
    x = tl.load(x_ptr + r[:, None] * C + tl.arange(0, C)[None, :], mask=r[:, None] < R, other=0.0)
    t = tl.load(t_ptr + r, mask=r < R, other=0)
    m = tl.reduce(x, 1, _max, pinned=PINNED)
    lse = m + tl.log(tl.sum(tl.exp(x - m[:, None]), axis=1, pinned=PINNED))
    xt = tl.sum(tl.where(tl.arange(0, C)[None, :] == t[:, None], x, 0.0), axis=1, pinned=PINNED)
    tl.store(y_ptr + r, lse - xt, mask=r < R)


@triton.jit
def gemm_colsum(a_ptr, b_ptr, y_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr, BN: tl.constexpr,
                PINNED: tl.constexpr):
    n = tl.program_id(0) * BN + tl.arange(0, BN)
    a = tl.load(a_ptr + tl.arange(0, M)[:, None] * K + tl.arange(0, K)[None, :])
    b = tl.load(b_ptr + tl.arange(0, K)[:, None] * N + n[None, :])
    acc = tl.dot(a, b)  # an MMA-layout accumulator
    tl.store(y_ptr + n, tl.sum(acc, axis=0, pinned=PINNED))


@triton.jit
def loop_sum(x_ptr, y_ptr, R, C, BR: tl.constexpr, BC: tl.constexpr, PINNED: tl.constexpr):
    """acc += tl.sum(chunk) over chunks of BC columns: the shape OptimizeThreadLocality rewrites
    (it would carry per-thread partials across iterations). BC is part of what the program
    computes; the kept block BR, warps, stages and alignment are not."""
    r = tl.program_id(0) * BR + tl.arange(0, BR)
    acc = tl.zeros((BR,), tl.float32)
    for c0 in range(0, C, BC):
        x = tl.load(x_ptr + r[:, None] * C + c0 + tl.arange(0, BC)[None, :], mask=r[:, None] < R, other=0.0)
        acc += tl.sum(x, axis=1, pinned=PINNED)
    tl.store(y_ptr + r, acc, mask=r < R)


def loop_sum_reference(x, bc=256):
    """The CPU's bits for loop_sum: pinned sums of each chunk, added in chunk order in fp32."""
    acc = np.zeros(x.shape[0], np.float32)
    for c0 in range(0, x.shape[1], bc):
        acc = (acc + pinned_sum(x[:, c0:c0 + bc], 1).astype(np.float32)).astype(np.float32)
    return acc


def wide(shape, seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    x = torch.randn(shape, device="cuda", generator=g)
    return x * torch.exp2(torch.randint(-8, 9, shape, device="cuda", generator=g).float())


def narrow(shape, seed):
    """Standard normal values: every exp term of a row's log-sum-exp counts (with wide() one term
    dominates and the free orders gave one byte pattern over 72 cross-entropy configurations, 2026-11-30e)."""
    g = torch.Generator(device="cuda").manual_seed(seed)
    return torch.randn(shape, device="cuda", generator=g)


def unaligned(x):
    """The same values one element past a 16-byte boundary (Triton then specialises differently)."""
    buf = torch.empty(x.numel() + 1, device=x.device, dtype=x.dtype)
    v = buf[1:].view(x.shape)
    v.copy_(x)
    return v


R, C = 4096, 1024
CASES = {
    # name: (kernel, inputs, output shape, grid from the kept block, kept block name, its values, CPU reference)
    "row_sum": (row_sum, lambda s: [wide((R, C), s)], (R,), lambda b: (triton.cdiv(R, b),), "BR", (1, 2, 4, 8),
                lambda x: pinned_sum(x, 1), dict(R=R, C=C)),
    "col_sum": (col_sum, lambda s: [wide((256, 8192), s)], (8192,), lambda b: (triton.cdiv(8192, b),), "BC",
                (16, 32, 64, 128), lambda x: pinned_sum(x, 0), dict(R=256, C=8192)),
    "mid_sum": (mid_sum, lambda s: [wide((512, 128, 16), s)], (512, 16), lambda b: (triton.cdiv(512, b),), "BA",
                (1, 2, 4), lambda x: pinned_sum(x, 1), dict(A=512, B=128, C=16)),
    "dot_rows": (dot_rows, lambda s: [wide((R, C), s), wide((C,), s + 9)], (R,), lambda b: (triton.cdiv(R, b),),
                 "BR", (1, 2, 4, 8), lambda x, w: pinned_sum(x * w[None, :], 1), dict(R=R, C=C)),
    "softmax": (softmax, lambda s: [wide((R, C), s)], (R, C), lambda b: (triton.cdiv(R, b),), "BR", (1, 2, 4),
                None, dict(R=R, C=C)),
    "log_softmax": (log_softmax, lambda s: [wide((R, C), s)], (R, C), lambda b: (triton.cdiv(R, b),), "BR",
                    (1, 2, 4), None, dict(R=R, C=C)),
    "layernorm": (layernorm, lambda s: [wide((R, C), s)], (R, C), lambda b: (triton.cdiv(R, b),), "BR", (1, 2, 4),
                  None, dict(R=R, C=C)),
    "rmsnorm": (rmsnorm, lambda s: [wide((R, C), s)], (R, C), lambda b: (triton.cdiv(R, b),), "BR", (1, 2, 4),
                None, dict(R=R, C=C)),
    "ln_bwd_dw": (ln_bwd_dw, lambda s: [wide((256, 4096), s), wide((256, 4096), s + 5)], (4096,),
                  lambda b: (triton.cdiv(4096, b),), "BC", (16, 32, 64), lambda dy, xh: pinned_sum(dy * xh, 0),
                  dict(R=256, C=4096)),
    "cross_entropy": (cross_entropy, lambda s: [narrow((R, C), s),
                                                torch.randint(0, C, (R,), device="cuda", dtype=torch.int32)],
                      (R,), lambda b: (triton.cdiv(R, b),), "BR", (1, 2, 4), None, dict(R=R, C=C)),
    "gemm_colsum": (gemm_colsum, lambda s: [wide((128, 64), s), wide((64, 1024), s + 3)], (1024,),
                    lambda b: (1024 // b,), "BN", (32, 64, 128), None, dict(M=128, N=1024, K=64)),
    "loop_sum": (loop_sum, lambda s: [wide((R, 8192), s)], (R,), lambda b: (triton.cdiv(R, b),), "BR", (1, 2, 4, 8),
                 loop_sum_reference, dict(R=R, C=8192, BC=256)),
}


def signature(name):
    """(kernel, Triton signature, constexprs but the kept block and PINNED, the block's name) of a
    suite kernel for compiling without a GPU: pointers fp32 (the cross-entropy targets i32),
    sizes that are runtime arguments i32."""
    kernel, _, _, _, block_name, _, _, shapes = CASES[name]
    args = kernel.arg_names
    sig = {a: "*i32" if a == "t_ptr" else "*fp32" for a in args if a.endswith("_ptr")}
    consts = dict(shapes)
    for a in args:
        if a in shapes and not kernel.params[args.index(a)].is_constexpr:
            sig[a] = "i32"
            consts.pop(a)
    return kernel, sig, consts, block_name


def digest(t):
    return hashlib.sha256(t.contiguous().view(torch.uint8).cpu().numpy().tobytes()).hexdigest()[:16]


def _space(name, quick):
    """The case's configurations, (num_warps, num_stages, kept block, aligned), in the suite's order."""
    blocks = CASES[name][5]
    warps = (1, 4) if quick else (1, 2, 4, 8)
    stages = (1, 3) if quick else (1, 2, 3)
    return list(itertools.product(warps, stages, blocks, (True, False)))


def _inputs(inputs, aligned):
    """The inputs as they are, or their floating-point ones copied one element off alignment."""
    return inputs if aligned else [unaligned(x) if x.is_floating_point() else x for x in inputs]


def _launcher(name, ins, cfg, pinned):
    """(output tensor, a no-argument launch of case `name` on `ins` under cfg and PINNED=pinned)."""
    kernel, _, out_shape, grid, block_name, _, _, shapes = CASES[name]
    w, s, b, _ = cfg
    out = torch.empty(out_shape, device="cuda")
    fn = lambda: kernel[grid(b)](*ins, out, **shapes, **{block_name: b}, PINNED=pinned,  # noqa: E731
                                 num_warps=w, num_stages=s)
    return out, fn


def _bench(fn, rep):
    """(do_bench's median, do_bench_cudagraph's median or None) of fn over `rep` ms of runs, in ms.
    The graph time leaves the launch's host time out: a 6-us kernel's do_bench time moved by 7%
    between two H200 runs of the same binary (gemm_colsum's free variant, 2026-11-29/30)."""
    t = triton.testing.do_bench(fn, warmup=5, rep=rep, return_mode="median")
    try:
        g = triton.testing.do_bench_cudagraph(fn, rep=rep, return_mode="median")
    except Exception:   # not capturable: the do_bench time stands alone
        g = None
    return t, g


def _walk(name, quick, rep):
    """Run every configuration of case `name`, pinned then free, once each; time each with
    do_bench when rep is given. Returns the result dict before _finish, and the inputs and
    last pinned output (for the CPU reference). res["ran"] lists [w, s, block, aligned, pinned]
    of every launch that built, in order: what time_case times later."""
    block_name = CASES[name][4]
    inputs = CASES[name][1](1234)
    res = {"name": name, "configs": 0, "pinned": set(), "free": set(), "t_pinned": [], "t_free": [], "ran": []}
    last = None
    for cfg in _space(name, quick):
        ins = _inputs(inputs, cfg[3])
        for pinned in (True, False):
            out, fn = _launcher(name, ins, cfg, pinned)
            try:
                fn()
            except Exception as e:  # a configuration Triton cannot build for this kernel
                w, s, b, _ = cfg
                res.setdefault("skipped", []).append(f"w{w} s{s} {block_name}{b}: {type(e).__name__}")
                break
            res["pinned" if pinned else "free"].add(digest(out))
            res["ran"].append([*cfg, pinned])
            if pinned:
                res["configs"] += 1
                last = out
            if rep is not None:
                t, g = _bench(fn, rep)
                res["t_pinned" if pinned else "t_free"].append(t)
                res.setdefault("g_pinned" if pinned else "g_free", []).append(g)
    return res, inputs, last


def _finish(res, inputs, last):
    """Add the CPU-reference comparison and the invariance verdicts; the digest sets become lists."""
    ref_fn = CASES[res["name"]][6]
    if ref_fn is not None and res["configs"]:
        ref = ref_fn(*(x.cpu().numpy() for x in inputs))
        if ref is not None:
            res["equals_cpu_reference"] = bool(np.array_equal(last.cpu().numpy().view(np.int32),
                                                              ref.astype(np.float32).view(np.int32)))
    res["pinned_invariant"] = len(res["pinned"]) == 1
    res["free_distinct"] = len(res["free"])
    set_times(res, res["t_pinned"], res["t_free"], res.pop("g_pinned", []), res.pop("g_free", []))
    res["pinned"], res["free"] = sorted(res["pinned"]), sorted(res["free"])
    return res


def set_times(res, t_pinned, t_free, g_pinned=(), g_free=()):
    """Put the pinned and free times (ms, one per configuration that ran; do_bench, and CUDA-graph
    times where captured) and their best ratios in res."""
    res["t_pinned"], res["t_free"] = list(t_pinned), list(t_free)
    res["speed_pinned_over_free"] = min(t_pinned) / min(t_free) if t_pinned and t_free else None
    gp, gf = [g for g in g_pinned if g], [g for g in g_free if g]
    res["g_pinned"], res["g_free"] = list(g_pinned), list(g_free)
    res["speed_graph"] = min(gp) / min(gf) if gp and gf else None
    return res


def run_case(name, quick, rep=20):
    """Correctness and speed of one case in this process (the suite at --jobs 1)."""
    res, inputs, last = _walk(name, quick, rep)
    del res["ran"]
    return _finish(res, inputs, last)


def check_case(name, quick):
    """Phase 1 (any process): run_case without timing. Every configuration runs once, so
    Triton's on-disk cache holds every kernel afterwards; res["ran"] says what to time."""
    res, inputs, last = _walk(name, quick, None)
    return _finish(res, inputs, last)


def _check_worker(task):
    """Pool entry point (top level, for spawn): check_case(name, quick), or None when the
    absolute deadline (time.time(); None: no budget) passed before the case started."""
    name, quick, deadline = task
    if deadline is not None and time.time() > deadline:
        return None
    return check_case(name, quick)


def time_case(name, ran, rep):
    """Phase 2 (the main process): time every configuration in `ran` (check_case's list) with
    do_bench and CUDA graphs; the kernels load from Triton's disk cache. Returns (pinned times,
    free times, pinned graph times, free graph times)."""
    inputs = CASES[name][1](1234)
    times = {True: [], False: []}
    for w, s, b, al, pinned in ran:
        _, fn = _launcher(name, _inputs(inputs, al), (w, s, b, al), pinned)
        fn()
        times[pinned].append(_bench(fn, rep))
    return ([t for t, _ in times[True]], [t for t, _ in times[False]],
            [g for _, g in times[True]], [g for _, g in times[False]])


def check_all(names, quick, deadline, jobs):
    """Phase 1 for every case in a spawn Pool of `jobs` workers (never fork: CUDA), in order:
    [(name, check_case's dict or None when not reached)]."""
    with multiprocessing.get_context("spawn").Pool(min(jobs, len(names))) as pool:
        checked = list(zip(names, pool.imap(_check_worker, [(n, quick, deadline) for n in names], chunksize=1)))
        pool.close()
        pool.join()
    return checked


def _line(r):
    f = lambda x: "-" if x is None else f"{x:.3f}"  # noqa: E731
    return (f"{r['name']:14s} configs {r['configs']:3d}  pinned invariant {r['pinned_invariant']}  "
            f"free patterns {r['free_distinct']}  cpu ref {r.get('equals_cpu_reference', '-')}  "
            f"pinned/free time {f(r['speed_pinned_over_free'])} (graph {f(r.get('speed_graph'))})")


def write_summary(out, results, not_reached, not_timed):
    """pinned.json from what was measured so far; returns the summary."""
    ratios = [r["speed_pinned_over_free"] for r in results if r["speed_pinned_over_free"]]
    graph = [r["speed_graph"] for r in results if r.get("speed_graph")]
    from bitorder.compiler import layouts
    summary = {"device": torch.cuda.get_device_name(), "pinned_layouts": layouts.enabled(), "kernels": len(results),
               "all_invariant": all(r["pinned_invariant"] for r in results),
               "median_time_ratio": float(np.median(ratios)) if ratios else None,
               "max_time_ratio": max(ratios) if ratios else None,
               "median_graph_ratio": float(np.median(graph)) if graph else None,
               "max_graph_ratio": max(graph) if graph else None,
               "not_reached": not_reached, "not_timed": not_timed, "results": results}
    with open(os.path.join(out, "pinned.json"), "w") as f:
        json.dump(summary, f, indent=1)
    return summary


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--jobs", type=int, default=1,
                    help="N > 1: check every case in N spawned workers first, then time serially here")
    ap.add_argument("--budget", type=float, default=0, help="seconds; cases not reached are listed (0: none)")
    ap.add_argument("--rep", type=float, default=20, help="do_bench's rep (ms) per configuration")
    ap.add_argument("--kernels", default="", help="comma-separated case names (default: all twelve)")
    args = ap.parse_args()
    names = [n for n in args.kernels.split(",") if n] or list(CASES)
    unknown = sorted(set(names) - set(CASES))
    if unknown:
        ap.error(f"unknown kernels {unknown}; the suite has {list(CASES)}")
    deadline = time.time() + args.budget if args.budget else None
    past = lambda: deadline is not None and time.time() > deadline  # noqa: E731
    results, not_reached, not_timed = [], [], []
    # `timeout` sends SIGTERM: leave through the finally so that what was measured is written
    # (2026-11-30c: the suite was killed after 4 of 12 kernels and wrote nothing).
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    try:
        if args.jobs <= 1:
            for name in names:
                if past():
                    not_reached.append(name)
                    continue
                r = run_case(name, args.quick, args.rep)
                results.append(r)
                print(_line(r), flush=True)
        else:
            for name, r in check_all(names, args.quick, deadline, args.jobs):
                if r is None:
                    not_reached.append(name)
                    continue
                ran = r.pop("ran")
                if past():
                    not_timed.append(name)
                else:
                    set_times(r, *time_case(name, ran, args.rep))
                results.append(r)
                print(_line(r), flush=True)
    finally:
        summary = write_summary(args.out, results, not_reached, not_timed)
    ratios = [r["speed_pinned_over_free"] for r in results if r["speed_pinned_over_free"]]
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots(figsize=(9, 4))
        ax.bar([r["name"] for r in results if r["speed_pinned_over_free"]], ratios)
        ax.axhline(1.0, color="k", lw=0.8)
        ax.axhline(1.1, color="r", ls="--", lw=0.8, label="target 1.10")
        ax.set_ylabel("pinned time / free time (each tuned)")
        ax.tick_params(axis="x", rotation=45)
        ax.legend()
        fig.tight_layout()
        fig.savefig(os.path.join(args.out, "pinned.png"), dpi=120)
    except Exception as e:
        print("plot failed:", e)
    print(json.dumps({k: v for k, v in summary.items() if k != "results"}))
    return 0 if summary["all_invariant"] else 1


if __name__ == "__main__":
    sys.exit(main())
