"""Pinned reductions on the GPU: invariance over each kernel's autotune space, and speed.

Twelve kernels (benchmarks/pinned_kernels.py), each with a PINNED switch, run over num_warps x
num_stages x the block of the kept axis x aligned / unaligned pointers. A kernel passes when
every configuration's pinned output is byte-identical and equal to its CPU reference (all
twelve have one, exact), while the free-order outputs are shown to differ. Speed: the best
pinned time over the best free time, each mode tuned over the same space, at larger runtime
sizes than the check's (pinned_kernels.TIMING: the same binaries, the pinned outputs' agreement
there recorded too); the CUDA-graph ratio is the kernels' time, do_bench's adds the launch.
Writes pinned.json and pinned.png.

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

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pinned_kernels import *  # noqa: E402,F401,F403  (the kernels, CASES, signature: ps.X as before)
from pinned_kernels import CASES, unaligned  # noqa: E402
from gather import Gather  # noqa: E402


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


def _launcher(name, ins, cfg, pinned, timing=False):
    """(output tensor, a no-argument launch of case `name` on `ins` under cfg and PINNED=pinned,
    a no-argument compile of that launch that runs nothing). timing: at TIMING's sizes."""
    kernel, _, out_shape, grid, block_name, _, _, shapes = CASES[name]
    if timing:
        _, out_shape, grid, shapes = TIMING[name]
    w, s, b, _ = cfg
    out = torch.empty(out_shape, device=ins[0].device)
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


def _walk(name, quick, part=(0, 1)):
    """Run every configuration of case `name` in share part = (i, n) of its space (every n-th from
    the i-th), pinned then free, once each. Returns the result dict before _finish, and the
    inputs and last pinned output (for the CPU reference). res["ran"] lists [w, s, block,
    aligned, pinned] of every launch that built, in order: what time_case times."""
    block_name = CASES[name][4]
    inputs = CASES[name][1](1234)   # seeded: every part draws the same inputs
    variants = {al: _inputs(inputs, al) for al in (True, False)}
    runs = [(cfg, pinned) for cfg in _space(name, quick)[part[0]::part[1]] for pinned in (True, False)]
    timing = [_inputs(TIMING[name][0](1234), al) for al in (True, False)] if name in TIMING_RECOMPILED else None
    for cfg, pinned in runs:    # compile all first, without the GPU lock: it goes on while the main
        with contextlib.suppress(Exception):  # process times (a failure shows again below)
            _launcher(name, variants[cfg[3]], cfg, pinned)[2]()
            if timing:          # binaries of their own at the timing sizes: built here, not while timing
                _launcher(name, timing[0 if cfg[3] else 1], cfg, pinned, timing=True)[2]()
    res = {"name": name, "configs": 0, "pinned": set(), "free": set(), "ran": []}
    last, failed = None, set()
    for cfg, pinned in runs:
        if cfg in failed:
            continue
        out, fn, _ = _launcher(name, variants[cfg[3]], cfg, pinned)
        try:
            with _GPU_LOCK:
                fn()
                if out.is_cuda:
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


def set_times(res, t_pinned, t_free, g_pinned=(), g_free=(), configs=None, digests=None):
    """Put the pinned and free times (ms, one per configuration that ran; do_bench, and CUDA-graph
    times where captured) and their best ratios in res; with `configs` ({True: pinned, False:
    free} lists of [w, s, block, aligned] in the times' order) and `digests` (the outputs at the
    timing sizes), also which configuration was best and whether the pinned outputs agree there.
    The CUDA-graph ratio is the kernels' own time (do_bench adds the launch: 2026-11-30g)."""
    res["t_pinned"], res["t_free"] = list(t_pinned), list(t_free)
    res["speed_pinned_over_free"] = min(t_pinned) / min(t_free) if t_pinned and t_free else None
    gp, gf = [g for g in g_pinned if g], [g for g in g_free if g]
    res["g_pinned"], res["g_free"] = list(g_pinned), list(g_free)
    res["speed_graph"] = min(gp) / min(gf) if gp and gf else None
    if configs:
        res["timed_configs"] = {"pinned": configs[True], "free": configs[False]}
        for mode, g in (("pinned", g_pinned), ("free", g_free)):
            ok = [(x, c) for x, c in zip(g, res["timed_configs"][mode]) if x]
            if ok:
                res[f"best_graph_{mode}"] = min(ok)[1]
    if digests:
        res["timing_pinned_invariant"] = len(digests[True]) == 1
        res["timing_free_distinct"] = len(digests[False])
    return res


def run_case(name, quick, rep=20):
    """Correctness and speed of one case in this process: check_case, then time_case."""
    r = check_case(name, quick)
    return set_times(r, *time_case(name, r.pop("ran"), rep))


def check_case(name, quick, part=(0, 1)):
    """Phase 1 (any process): every configuration of share `part` (_walk's) runs once, untimed,
    so Triton's on-disk cache holds every kernel afterwards; res["ran"] says what to time."""
    t0 = time.time()
    res = _finish(*_walk(name, quick, part))
    res["seconds"] = {"check": time.time() - t0}
    return res


def _check_worker(task):
    """Pool entry point (top level, for spawn): (name, check_case(name, quick, part)), or (name,
    None) when the absolute deadline (time.time(); None: no budget) passed before it started."""
    name, quick, deadline, part = task
    if deadline is not None and time.time() > deadline:
        return name, None
    return name, check_case(name, quick, part)


def merge_parts(parts):
    """One case's phase-1 result from its parts' (check_case's over shares of its space; None for
    a part not reached), or None if none ran. A case is split so that its compilations run in
    several workers (2026-11-30f: one worker per case compiled 144 kernels one after another)."""
    rs = [r for r in parts if r is not None]
    if not rs:
        return None
    pinned, free = sorted({d for r in rs for d in r["pinned"]}), sorted({d for r in rs for d in r["free"]})
    m = {"name": rs[0]["name"], "configs": sum(r["configs"] for r in rs), "pinned": pinned, "free": free,
         "pinned_invariant": len(pinned) == 1, "free_distinct": len(free),
         "ran": [x for r in rs for x in r.get("ran", [])],
         "seconds": {"check": max(r["seconds"]["check"] for r in rs)}}   # the parts ran side by side
    refs = [r["equals_cpu_reference"] for r in rs if "equals_cpu_reference" in r]
    if refs:
        m["equals_cpu_reference"] = all(refs)
    skipped = [x for r in rs for x in r.get("skipped", [])]
    if skipped:
        m["skipped"] = skipped
    if len(rs) < len(parts):
        m["parts_not_reached"] = len(parts) - len(rs)
    return set_times(m, [], [])


def gather_cases(arrivals, names, parts):
    """Each case's merged phase-1 result as its `parts` shares arrive (arrivals: (name, share result))."""
    return Gather(arrivals, dict.fromkeys(names, parts), lambda _, got: merge_parts(got))


def time_case(name, ran, rep):
    """Phase 2 (the main process): time every configuration in `ran` (check_case's list) at
    TIMING's sizes with do_bench and CUDA graphs; the kernels load from Triton's caches (the
    sizes that grow are runtime arguments). Returns set_times' arguments: (pinned times, free
    times, pinned graph times, free graph times, the timed configurations in that order, and the
    digests of the outputs at the timing sizes, pinned and free)."""
    inputs = TIMING[name][0](1234)
    variants = {al: _inputs(inputs, al) for al in (True, False)}
    times, configs, digests = {True: [], False: []}, {True: [], False: []}, {True: set(), False: set()}
    seen = {}   # a configuration whose binary, grid and inputs another had: the same kernel, its times
    for w, s, b, al, pinned in ran:
        out, fn, build = _launcher(name, variants[al], (w, s, b, al), pinned, timing=True)
        key = (_binary(build()), TIMING[name][2](b), al, pinned)
        if key not in seen:     # (num_stages builds the same code for kernels without a loop)
            fn()
            digests[pinned].add(digest(out))
            seen[key] = _bench(fn, rep)
        times[pinned].append(seen[key])
        configs[pinned].append([w, s, b, al])
    return ([t for t, _ in times[True]], [t for t, _ in times[False]],
            [g for _, g in times[True]], [g for _, g in times[False]], configs, digests)


def _binary(compiled):
    """A digest of a compiled kernel's machine code (the cubin, or the AMD code object); a fresh
    object when there is none (Triton's interpreter), so that nothing is taken for the same."""
    asm = getattr(compiled, "asm", None) or {}
    code = asm.get("cubin") or asm.get("hsaco")
    if code is None:
        return object()
    return hashlib.sha256(code if isinstance(code, bytes) else code.encode()).hexdigest()[:16]


# -- bookkeeping: pure, so that tests/language/test_pinned_suite_phases.py checks it on the CPU ---
def new_book():
    """The run's state: checked (name -> result dict, in arrival order), timed (names), rate
    ((seconds, launches) of the last kernel timed)."""
    return {"checked": {}, "timed": set(), "rate": None}


def timing_estimate(rate, launches):
    """Seconds to time `launches` launches at the last kernel's rate; None before any."""
    return None if not rate else rate[0] / max(rate[1], 1) * launches


class _Stop:
    """SIGTERM's SystemExit, held while a phase-1 result moves from the pool into the book. Raised
    anywhere between the pool handing a result over and the book taking it, it lost that result
    and left a gap in the suite order (2026-12-06: case 2 missing, case 3 drained after it)."""
    held, pending = 0, False


def on_sigterm(*_):
    """main()'s SIGTERM handler: SystemExit(143) now, or when the result in hand is booked."""
    if _Stop.held:
        _Stop.pending = True
    else:
        sys.exit(143)


@contextlib.contextmanager
def held():
    """A block on_sigterm does not interrupt: a SIGTERM inside it raises SystemExit(143) as it ends."""
    _Stop.held += 1
    try:
        yield
    finally:
        _Stop.held -= 1
        if not _Stop.held and _Stop.pending:
            _Stop.pending = False
            sys.exit(143)


def _book(book, name, r):
    """Book phase-1 result r as checked, not yet timed; its launches ("ran"), taken out of it."""
    ran = r.pop("ran", [])
    r.setdefault("not_timed", "interrupted before its timing")
    book["checked"][name] = r
    return ran


def arrived(arrivals, book, poll=0.2):
    """(name, result, its launches) for each phase-1 result, booked as checked (not yet timed)
    before it is yielded; a result of None (the worker found the deadline passed) is skipped.
    From a pool (arrivals with next(timeout)), the wait polls so that each take-and-book runs
    whole under held(); a plain iterator (--jobs 1) runs the check here, interruptible."""
    if not hasattr(arrivals, "next"):
        for name, r in arrivals:
            if r is not None:
                with held():
                    got = name, r, _book(book, name, r)
                yield got
        return
    while True:
        with held():
            try:
                name, r = arrivals.next(timeout=poll)
            except multiprocessing.TimeoutError:
                continue
            except StopIteration:
                return
            got = None if r is None else (name, r, _book(book, name, r))
        if got is not None:
            yield got


def time_as_checked(arrivals, book, time_fn, deadline=None, clock=time.time, show=print):
    """Phase 2: time each case (time_fn(name, ran) -> set_times' arguments) as soon as its phase-1
    result arrives (arrivals yields (name, result or None), lazily), unless the budget is gone or
    below timing_estimate: then r["not_timed"] says why. `book` is updated as things happen, so
    an interruption (SystemExit from SIGTERM) loses nothing already measured."""
    for name, r, ran in arrived(arrivals, book):
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
    """After an interruption: record the phase-1 results already arrived, never waiting (and,
    from a Gather, the case whose parts were still arriving)."""
    while True:
        try:
            name, r = arrivals.next(timeout=0)
        except (multiprocessing.TimeoutError, StopIteration):
            last = arrivals.partial() if isinstance(arrivals, Gather) else None
            if last is None:
                return
            name, r = last   # (r is None if none of its parts had started)
        if r is not None:
            _book(book, name, r)


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
    at_timing = [r["timing_pinned_invariant"] for r in results if "timing_pinned_invariant" in r]
    return {**meta, "kernels": len(results), "all_invariant": all(r["pinned_invariant"] for r in results),
            "all_invariant_at_timing_sizes": all(at_timing) if at_timing else None,
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
            f"pinned/free graph {f(r.get('speed_graph'))} (do_bench {f(r.get('speed_pinned_over_free'))})"
            + (f"  timing sizes invariant {r['timing_pinned_invariant']}" if "timing_pinned_invariant" in r else "")
            + (f"  not timed: {r['not_timed']}" if r.get("not_timed") else ""))


def write_summary(out, summary):
    """Write pinned.json (atomically: a kill while writing leaves the old file or the new one)."""
    path = os.path.join(out, "pinned.json")
    with open(path + ".tmp", "w") as f:
        json.dump(summary, f, indent=1)
    os.replace(path + ".tmp", path)


def _plot(out, results):
    ok = [r for r in results if r.get("speed_graph") or r.get("speed_pinned_over_free")]
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots(figsize=(9, 4))
        x = np.arange(len(ok))
        ax.bar(x - 0.2, [r.get("speed_graph") or 0 for r in ok], 0.4, label="CUDA graph (kernel time)")
        ax.bar(x + 0.2, [r.get("speed_pinned_over_free") or 0 for r in ok], 0.4, label="do_bench (with launch)")
        ax.set_xticks(x, [r["name"] for r in ok])
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
    os.makedirs(args.out, exist_ok=True)   # (2026-12-02 calls 5-6 lost their check: the folder did not exist)
    names = [n for n in args.kernels.split(",") if n] or list(CASES)
    unknown = sorted(set(names) - set(CASES))
    if unknown:
        ap.error(f"unknown kernels {unknown}; the suite has {list(CASES)}")
    t_start = time.time()
    deadline = t_start + args.budget if args.budget else None
    meta = dict(device=torch.cuda.get_device_name(), pinned_layouts=layouts.enabled())
    # each case in `parts` shares of its space, so that its compilations spread over the workers
    parts = 1 if args.jobs <= 1 else max(1, min(8, -(-2 * args.jobs // len(names))))
    tasks = [(n, args.quick, deadline, (i, parts)) for n in names for i in range(parts)]
    book, pool, stopped = new_book(), None, None

    def timed(name, ran):
        with _GPU_LOCK:
            return time_case(name, ran, args.rep)
    # `timeout` sends SIGTERM: leave the phases through SystemExit and write what was measured
    # (2026-11-30c: killed after 4 of 12 kernels, nothing written; 2026-11-30f: the kernels
    # checked but not yet timed were lost, and the Pool's teardown can hang after a SIGTERM).
    signal.signal(signal.SIGTERM, on_sigterm)
    try:
        if args.jobs > 1:
            ctx = multiprocessing.get_context("spawn")      # never fork: CUDA
            _GPU_LOCK = ctx.Lock()
            pool = ctx.Pool(min(args.jobs, len(tasks)), initializer=_init_worker, initargs=(_GPU_LOCK,))
            arrivals = gather_cases(pool.imap(_check_worker, tasks, chunksize=1), names, parts)
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
    return 0 if summary["all_invariant"] and summary["all_equal_cpu_reference"] is not False \
        and summary["all_invariant_at_timing_sizes"] is not False else 1


if __name__ == "__main__":
    sys.exit(main())
