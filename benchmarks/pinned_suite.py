"""Pinned reductions on the GPU: invariance over each kernel's autotune space, and speed.

Twelve kernels, each with a PINNED switch, run over num_warps x num_stages x the block of
the kept axis x aligned / unaligned pointers. A kernel passes when every configuration's
pinned output is byte-identical and equal to its CPU reference (all twelve have one), while
the free-order outputs are shown to differ. The references are exact models, never a
tolerance: numpy in fp32 rounding each operation as the kernel does, which the kernels make
possible by using only operations both sides round alike: fp32 adds and multiplies (no
product feeds a contractible add: the pinned kernels' SASS is the same with fp-fusion on and
off), the pinned tree (bitorder.emulate.pinned_sum), max (order-free), IEEE division and square
root (tl.math.div_rn, tl.sqrt_rn: "/" and tl.sqrt are approximate on NVIDIA), bitorder.math's
shared exp and log (tl.exp / tl.log are approximate), and for gemm_colsum an fp16 MMA chain
(bitorder.emulate's tensor-core model; an fp32 dot would be TF32). The free variants use the
same math but Triton's own sums. Speed: the best pinned time over the best free time, each mode
tuned over the same space. Writes pinned.json and pinned.png.

Phase 1 runs every configuration of a case once, untimed (digests, CPU reference); phase 2
times each configuration with do_bench and CUDA graphs, in the main process, as soon as the
case's phase 1 is done. With --jobs N > 1, phase 1 runs in N spawned workers sharing the GPU
(Triton compiles in parallel), which launch kernels only while nothing is being timed.
--budget S: cases not started in time are listed under not_reached, cases checked but not
timed (out of time, or the timing's estimate from the last kernel's rate does not fit) under
not_timed. SIGTERM (from `timeout`) writes pinned.json with everything measured so far.

    python benchmarks/pinned_suite.py --out DIR [--quick] [--jobs N] [--budget S] [--rep MS] [--kernels A,B]
"""
from __future__ import annotations

import argparse
import contextlib
import hashlib
import itertools
import json
import multiprocessing
import os
import signal
import sys
import time
import traceback

import numpy as np
import torch
import triton
import triton.language as tl

import bitorder  # noqa: F401  (installs pinned=)
from bitorder.desc import GEMMDesc
from bitorder.emulate import accumulate, pinned_reduce, pinned_sum
from bitorder.math import exp as np_exp, log as np_log, tl_exp, tl_log

F32 = np.float32


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
def _rows(x_ptr, R, C: tl.constexpr, BR: tl.constexpr):
    """A block of BR rows: their indices, offsets and values."""
    r = tl.program_id(0) * BR + tl.arange(0, BR)
    off = r[:, None] * C + tl.arange(0, C)[None, :]
    return r, off, tl.load(x_ptr + off, mask=r[:, None] < R, other=0.0)


@triton.jit
def _rows_and_max(x_ptr, R, C: tl.constexpr, BR: tl.constexpr, PINNED: tl.constexpr):
    """_rows and the row maxima."""
    r, off, x = _rows(x_ptr, R, C, BR)
    return r, off, x, tl.reduce(x, 1, _max, pinned=PINNED)


@triton.jit
def softmax(x_ptr, y_ptr, R, C: tl.constexpr, BR: tl.constexpr, PINNED: tl.constexpr):
    r, off, x, m = _rows_and_max(x_ptr, R, C, BR, PINNED)
    e = tl_exp(x - m[:, None])
    tl.store(y_ptr + off, tl.math.div_rn(e, tl.sum(e, axis=1, pinned=PINNED)[:, None]), mask=r[:, None] < R)


@triton.jit
def log_softmax(x_ptr, y_ptr, R, C: tl.constexpr, BR: tl.constexpr, PINNED: tl.constexpr):
    r, off, x, m = _rows_and_max(x_ptr, R, C, BR, PINNED)
    lse = tl_log(tl.sum(tl_exp(x - m[:, None]), axis=1, pinned=PINNED))
    tl.store(y_ptr + off, x - m[:, None] - lse[:, None], mask=r[:, None] < R)


@triton.jit
def layernorm(x_ptr, y_ptr, R, C: tl.constexpr, BR: tl.constexpr, PINNED: tl.constexpr):
    r, off, x = _rows(x_ptr, R, C, BR)
    mean = tl.math.div_rn(tl.sum(x, axis=1, pinned=PINNED), C * 1.0)
    d = x - mean[:, None]
    var = tl.math.div_rn(tl.sum(d * d, axis=1, pinned=PINNED), C * 1.0)
    tl.store(y_ptr + off, tl.math.div_rn(d, tl.sqrt_rn(var + 1e-5)[:, None]), mask=r[:, None] < R)


@triton.jit
def rmsnorm(x_ptr, y_ptr, R, C: tl.constexpr, BR: tl.constexpr, PINNED: tl.constexpr):
    r, off, x = _rows(x_ptr, R, C, BR)
    ms = tl.math.div_rn(tl.sum(x * x, axis=1, pinned=PINNED), C * 1.0)
    tl.store(y_ptr + off, tl.math.div_rn(x, tl.sqrt_rn(ms + 1e-6)[:, None]), mask=r[:, None] < R)


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
    lse = m + tl_log(tl.sum(tl_exp(x - m[:, None]), axis=1, pinned=PINNED))
    xt = tl.sum(tl.where(tl.arange(0, C)[None, :] == t[:, None], x, 0.0), axis=1, pinned=PINNED)
    tl.store(y_ptr + r, lse - xt, mask=r < R)


@triton.jit
def gemm_colsum(a_ptr, b_ptr, y_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr, BN: tl.constexpr,
                PINNED: tl.constexpr):
    """fp16 operands (a no-op cast for the suite's fp16 inputs; fp32 callers round to nearest here):
    an fp16 MMA chain over K in steps of 16, which bitorder.emulate models exactly (an fp32 dot
    would be TF32, which it does not)."""
    n = tl.program_id(0) * BN + tl.arange(0, BN)
    a = tl.load(a_ptr + tl.arange(0, M)[:, None] * K + tl.arange(0, K)[None, :]).to(tl.float16)
    b = tl.load(b_ptr + tl.arange(0, K)[:, None] * N + n[None, :]).to(tl.float16)
    acc = tl.dot(a, b)  # fp32 accumulator in an MMA layout
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


# CPU references for the kernels built on exp, log, division and square roots: numpy in fp32,
# each operation rounded once as the kernel rounds it (shared exp / log, div_rn, sqrt_rn; max
# is order-free, so any tree gives its bits; pinned_reduce keeps the kernel's anyway).
def _shifted(x):
    """x minus its row maximum, in fp32."""
    x = x.astype(F32)
    return (x - pinned_reduce(x, 1, np.maximum)[:, None]).astype(F32)


def softmax_reference(x):
    """softmax's bits: shared exp of x - max, the pinned sum, one IEEE division."""
    e = np_exp(_shifted(x))
    return (e / pinned_sum(e, 1)[:, None]).astype(F32)


def log_softmax_reference(x):
    """log_softmax's bits: (x - max) - log(pinned sum of exp(x - max)), shared exp and log."""
    xm = _shifted(x)
    return (xm - np_log(pinned_sum(np_exp(xm), 1))[:, None]).astype(F32)


def layernorm_reference(x, eps=1e-5):
    """layernorm's bits (no affine): pinned sums, IEEE divisions, d / sqrt_rn(var + eps)."""
    x, c = x.astype(F32), F32(x.shape[1])
    mean = (pinned_sum(x, 1) / c).astype(F32)
    d = (x - mean[:, None]).astype(F32)
    var = (pinned_sum((d * d).astype(F32), 1) / c).astype(F32)
    return (d / np.sqrt((var + F32(eps)).astype(F32))[:, None]).astype(F32)


def rmsnorm_reference(x, eps=1e-6):
    """rmsnorm's bits (no weight): x / sqrt_rn(pinned_sum(x * x) / C + eps)."""
    x = x.astype(F32)
    ms = (pinned_sum((x * x).astype(F32), 1) / F32(x.shape[1])).astype(F32)
    return (x / np.sqrt((ms + F32(eps)).astype(F32))[:, None]).astype(F32)


def cross_entropy_reference(x, t):
    """cross_entropy's bits: max + log(pinned sum of exp(x - max)), minus the pinned sum of the
    row with every column but t zeroed (how the kernel takes x[t])."""
    x = x.astype(F32)
    lse = (pinned_reduce(x, 1, np.maximum) + np_log(pinned_sum(np_exp(_shifted(x)), 1))).astype(F32)
    xt = pinned_sum(np.where(np.arange(x.shape[1])[None, :] == t[:, None], x, F32(0)), 1)
    return (lse - xt).astype(F32)


def gemm_colsum_reference(a, b):
    """gemm_colsum's bits: the fp32 accumulator of an fp16 MMA chain over K in steps of 16 from
    zero (bitorder.emulate.accumulate of a plain descriptor, before any output rounding; Triton's
    wgmma k16 at 4 and 8 warps and mma.sync m16n8k16 at 1 and 2 round alike, docs/h200-facts.md),
    then the pinned column sum."""
    a, b = np.asarray(a, np.float16), np.asarray(b, np.float16)
    acc = accumulate(a.astype(np.float64), b.astype(np.float64), GEMMDesc("plain", "fp16", a.shape[1], "wgmma", 16))
    return pinned_sum(acc, 0)


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
                softmax_reference, dict(R=R, C=C)),
    "log_softmax": (log_softmax, lambda s: [wide((R, C), s)], (R, C), lambda b: (triton.cdiv(R, b),), "BR",
                    (1, 2, 4), log_softmax_reference, dict(R=R, C=C)),
    "layernorm": (layernorm, lambda s: [wide((R, C), s)], (R, C), lambda b: (triton.cdiv(R, b),), "BR", (1, 2, 4),
                  layernorm_reference, dict(R=R, C=C)),
    "rmsnorm": (rmsnorm, lambda s: [wide((R, C), s)], (R, C), lambda b: (triton.cdiv(R, b),), "BR", (1, 2, 4),
                rmsnorm_reference, dict(R=R, C=C)),
    "ln_bwd_dw": (ln_bwd_dw, lambda s: [wide((256, 4096), s), wide((256, 4096), s + 5)], (4096,),
                  lambda b: (triton.cdiv(4096, b),), "BC", (16, 32, 64), lambda dy, xh: pinned_sum(dy * xh, 0),
                  dict(R=256, C=4096)),
    "cross_entropy": (cross_entropy, lambda s: [narrow((R, C), s),
                                                torch.randint(0, C, (R,), device="cuda", dtype=torch.int32)],
                      (R,), lambda b: (triton.cdiv(R, b),), "BR", (1, 2, 4), cross_entropy_reference, dict(R=R, C=C)),
    "gemm_colsum": (gemm_colsum, lambda s: [wide((128, 64), s).half(), wide((64, 1024), s + 3).half()], (1024,),
                    lambda b: (1024 // b,), "BN", (32, 64, 128), gemm_colsum_reference, dict(M=128, N=1024, K=64)),
    "loop_sum": (loop_sum, lambda s: [wide((R, 8192), s)], (R,), lambda b: (triton.cdiv(R, b),), "BR", (1, 2, 4, 8),
                 loop_sum_reference, dict(R=R, C=8192, BC=256)),
}


_POINTER_TYPES = {"t_ptr": "*i32", "a_ptr": "*fp16", "b_ptr": "*fp16"}  # the rest are fp32


def signature(name):
    """(kernel, Triton signature, constexprs but the kept block and PINNED, the block's name) of a
    suite kernel for compiling without a GPU: pointers fp32 (the cross-entropy targets i32,
    gemm_colsum's operands fp16), sizes that are runtime arguments i32."""
    kernel, _, _, _, block_name, _, _, shapes = CASES[name]
    args = kernel.arg_names
    sig = {a: _POINTER_TYPES.get(a, "*fp32") for a in args if a.endswith("_ptr")}
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
    """(output tensor, a no-argument launch of case `name` on `ins` under cfg and PINNED=pinned,
    a no-argument compile of that launch that runs nothing)."""
    kernel, _, out_shape, grid, block_name, _, _, shapes = CASES[name]
    w, s, b, _ = cfg
    out = torch.empty(out_shape, device="cuda")
    kw = dict(**shapes, **{block_name: b}, PINNED=pinned, num_warps=w, num_stages=s)
    return out, lambda: kernel[grid(b)](*ins, out, **kw), lambda: kernel.warmup(*ins, out, grid=grid(b), **kw)


# --jobs N: one lock held to run kernels, so that phase-1 workers run theirs only while the main
# process is not timing (the timed kernel has the GPU to itself; compiling goes on meanwhile).
_GPU_LOCK = contextlib.nullcontext()


def _init_worker(lock):
    """Pool initializer: the GPU lock the main process made."""
    global _GPU_LOCK
    _GPU_LOCK = lock


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


def _walk(name, quick):
    """Run every configuration of case `name`, pinned then free, once each. Returns the result
    dict before _finish, and the inputs and last pinned output (for the CPU reference).
    res["ran"] lists [w, s, block, aligned, pinned] of every launch that built, in order: what
    time_case times."""
    block_name = CASES[name][4]
    inputs = CASES[name][1](1234)
    variants = {al: _inputs(inputs, al) for al in (True, False)}
    runs = [(cfg, pinned) for cfg in _space(name, quick) for pinned in (True, False)]
    for cfg, pinned in runs:    # compile all first, without the GPU lock: it goes on while the main
        with contextlib.suppress(Exception):  # process times (a failure shows again below)
            _launcher(name, variants[cfg[3]], cfg, pinned)[2]()
    res = {"name": name, "configs": 0, "pinned": set(), "free": set(), "ran": []}
    last, failed = None, set()
    for cfg, pinned in runs:
        if cfg in failed:
            continue
        out, fn, _ = _launcher(name, variants[cfg[3]], cfg, pinned)
        try:
            with _GPU_LOCK:
                fn()
                torch.cuda.synchronize()
        except Exception as e:  # a configuration Triton cannot build for this kernel
            w, s, b, _ = cfg
            res.setdefault("skipped", []).append(f"w{w} s{s} {block_name}{b}: {type(e).__name__}")
            failed.add(cfg)
            continue
        res["pinned" if pinned else "free"].add(digest(out))
        res["ran"].append([*cfg, pinned])
        if pinned:
            res["configs"] += 1
            last = out
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
    set_times(res, [], [])
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
    """Correctness and speed of one case in this process: check_case, then time_case."""
    r = check_case(name, quick)
    return set_times(r, *time_case(name, r.pop("ran"), rep))


def check_case(name, quick):
    """Phase 1 (any process): every configuration runs once, untimed, so Triton's on-disk cache
    holds every kernel afterwards; res["ran"] says what to time."""
    t0 = time.time()
    res = _finish(*_walk(name, quick))
    res["seconds"] = {"check": time.time() - t0}
    return res


def _check_worker(task):
    """Pool entry point (top level, for spawn): (name, check_case(name, quick)), or (name, None)
    when the absolute deadline (time.time(); None: no budget) passed before the case started."""
    name, quick, deadline = task
    if deadline is not None and time.time() > deadline:
        return name, None
    return name, check_case(name, quick)


def time_case(name, ran, rep):
    """Phase 2 (the main process): time every configuration in `ran` (check_case's list) with
    do_bench and CUDA graphs; the kernels load from Triton's caches. Returns (pinned times,
    free times, pinned graph times, free graph times)."""
    inputs = CASES[name][1](1234)
    times = {True: [], False: []}
    for w, s, b, al, pinned in ran:
        _, fn, _ = _launcher(name, _inputs(inputs, al), (w, s, b, al), pinned)
        fn()
        times[pinned].append(_bench(fn, rep))
    return ([t for t, _ in times[True]], [t for t, _ in times[False]],
            [g for _, g in times[True]], [g for _, g in times[False]])


# -- bookkeeping: pure, so that tests/language/test_pinned_suite_phases.py checks it on the CPU ---
def new_book():
    """The run's state: checked (name -> result dict, in arrival order), timed (names), rate
    ((seconds, launches) of the last kernel timed)."""
    return {"checked": {}, "timed": set(), "rate": None}


def timing_estimate(rate, launches):
    """Seconds to time `launches` launches at the last kernel's rate; None before any."""
    return None if not rate else rate[0] / max(rate[1], 1) * launches


def time_as_checked(arrivals, book, time_fn, deadline=None, clock=time.time, show=print):
    """Phase 2: time each case (time_fn(name, ran) -> set_times' arguments) as soon as its phase-1
    result arrives (arrivals yields (name, result or None), lazily), unless the budget is gone or
    below timing_estimate: then r["not_timed"] says why. `book` is updated as things happen, so
    an interruption (SystemExit from SIGTERM) loses nothing already measured."""
    for name, r in arrivals:
        if r is None:   # the worker found the deadline passed: not reached
            continue
        ran = r.pop("ran", [])
        book["checked"][name] = r
        est = timing_estimate(book["rate"], len(ran))
        left = None if deadline is None else deadline - clock()
        if left is not None and (left <= 0 or (est is not None and left < est)):
            r["not_timed"] = f"budget: {max(left, 0):.1f} s left, timing estimated at {est or 0:.1f} s"
            show(_line(r))
            continue
        r["not_timed"] = "interrupted while timing"     # until the timing returns
        t0 = clock()
        times = time_fn(name, ran)
        dt = clock() - t0
        set_times(r, *times)
        del r["not_timed"]
        r.setdefault("seconds", {})["timing"] = dt
        book["timed"].add(name)
        book["rate"] = (dt, len(ran))
        show(_line(r))


def drain(arrivals, book):
    """After an interruption: record the phase-1 results already arrived, never waiting."""
    while True:
        try:
            name, r = arrivals.next(timeout=0)
        except (multiprocessing.TimeoutError, StopIteration):
            return
        if r is not None:
            r.pop("ran", None)
            r.setdefault("not_timed", "interrupted before its timing")
            book["checked"][name] = r


def ledger(names, book):
    """(results, not_reached, not_timed) in suite order: every checked case's result (timed or
    not), the cases never checked, the cases checked but not timed."""
    results = [book["checked"][n] for n in names if n in book["checked"]]
    not_timed = [n for n in names if n in book["checked"] and n not in book["timed"]]
    return results, [n for n in names if n not in book["checked"]], not_timed


def summarize(names, book, seconds, **meta):
    """pinned.json's content from the book; meta (device, ...) goes in as it is."""
    results, not_reached, not_timed = ledger(names, book)
    ratios = [r["speed_pinned_over_free"] for r in results if r.get("speed_pinned_over_free")]
    graph = [r["speed_graph"] for r in results if r.get("speed_graph")]
    refs = [r["equals_cpu_reference"] for r in results if "equals_cpu_reference" in r]
    return {**meta, "kernels": len(results), "all_invariant": all(r["pinned_invariant"] for r in results),
            "all_equal_cpu_reference": all(refs) if refs else None,
            "median_time_ratio": float(np.median(ratios)) if ratios else None,
            "max_time_ratio": max(ratios) if ratios else None,
            "median_graph_ratio": float(np.median(graph)) if graph else None,
            "max_graph_ratio": max(graph) if graph else None,
            "seconds": seconds, "not_reached": not_reached, "not_timed": not_timed, "results": results}


def _line(r):
    f = lambda x: "-" if x is None else f"{x:.3f}"  # noqa: E731
    return (f"{r['name']:14s} configs {r['configs']:3d}  pinned invariant {r['pinned_invariant']}  "
            f"free patterns {r['free_distinct']}  cpu ref {r.get('equals_cpu_reference', '-')}  "
            f"pinned/free time {f(r.get('speed_pinned_over_free'))} (graph {f(r.get('speed_graph'))})"
            + (f"  not timed: {r['not_timed']}" if r.get("not_timed") else ""))


def write_summary(out, summary):
    """Write pinned.json (atomically: a kill while writing leaves the old file or the new one)."""
    path = os.path.join(out, "pinned.json")
    with open(path + ".tmp", "w") as f:
        json.dump(summary, f, indent=1)
    os.replace(path + ".tmp", path)


def _plot(out, results):
    ok = [r for r in results if r.get("speed_pinned_over_free")]
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots(figsize=(9, 4))
        ax.bar([r["name"] for r in ok], [r["speed_pinned_over_free"] for r in ok])
        ax.axhline(1.0, color="k", lw=0.8)
        ax.axhline(1.1, color="r", ls="--", lw=0.8, label="target 1.10")
        ax.set_ylabel("pinned time / free time (each tuned)")
        ax.tick_params(axis="x", rotation=45)
        ax.legend()
        fig.tight_layout()
        fig.savefig(os.path.join(out, "pinned.png"), dpi=120)
    except Exception as e:
        print("plot failed:", e)


def main():
    global _GPU_LOCK
    from bitorder.compiler import layouts
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--jobs", type=int, default=1,
                    help="N > 1: check in N spawned workers; each case is timed here as its check arrives")
    ap.add_argument("--budget", type=float, default=0, help="seconds; cases not reached are listed (0: none)")
    ap.add_argument("--rep", type=float, default=20, help="do_bench's rep (ms) per configuration")
    ap.add_argument("--kernels", default="", help="comma-separated case names (default: all twelve)")
    args = ap.parse_args()
    names = [n for n in args.kernels.split(",") if n] or list(CASES)
    unknown = sorted(set(names) - set(CASES))
    if unknown:
        ap.error(f"unknown kernels {unknown}; the suite has {list(CASES)}")
    t_start = time.time()
    deadline = t_start + args.budget if args.budget else None
    meta = dict(device=torch.cuda.get_device_name(), pinned_layouts=layouts.enabled())
    tasks = [(n, args.quick, deadline) for n in names]
    book, pool, stopped = new_book(), None, None

    def timed(name, ran):
        with _GPU_LOCK:
            return time_case(name, ran, args.rep)
    # `timeout` sends SIGTERM: leave the phases through SystemExit and write what was measured
    # (2026-11-30c: killed after 4 of 12 kernels, nothing written; 2026-11-30f: the kernels
    # checked but not yet timed were lost, and the Pool's teardown can hang after a SIGTERM).
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    try:
        if args.jobs > 1:
            ctx = multiprocessing.get_context("spawn")      # never fork: CUDA
            _GPU_LOCK = ctx.Lock()
            pool = ctx.Pool(min(args.jobs, len(names)), initializer=_init_worker, initargs=(_GPU_LOCK,))
            arrivals = pool.imap(_check_worker, tasks, chunksize=1)
        else:
            arrivals = map(_check_worker, tasks)            # lazily, here: check, time, next case
        time_as_checked(arrivals, book, timed, deadline, show=lambda line: print(line, flush=True))
    except BaseException as e:     # SIGTERM (SystemExit), Ctrl-C, or a failure: write, then leave
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        stopped = e
        if not isinstance(e, (SystemExit, KeyboardInterrupt)):
            traceback.print_exc()
        if pool is not None:
            drain(arrivals, book)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)           # while writing
    summary = summarize(names, book, {"total": time.time() - t_start, "budget": args.budget or None},
                        stopped=None if stopped is None else type(stopped).__name__, **meta)
    write_summary(args.out, summary)
    print(json.dumps({k: v for k, v in summary.items() if k != "results"}), flush=True)
    if stopped is not None:
        # never wait on the pool: its workers may have died holding its queue's lock
        for p in multiprocessing.active_children():
            p.terminate()
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(143 if isinstance(stopped, SystemExit) else 1)
    signal.signal(signal.SIGTERM, lambda *_: os._exit(143))    # the summary is written: no need to linger
    if pool is not None:
        pool.close()
        pool.join()
    _plot(args.out, summary["results"])
    return 0 if summary["all_invariant"] and summary["all_equal_cpu_reference"] is not False else 1


if __name__ == "__main__":
    sys.exit(main())
