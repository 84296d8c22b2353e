"""The checker's soundness gate and partition quality over the corpus (benchmarks/corpus).

Every configuration of every corpus kernel is compiled and classed by bitorder.check;
configurations are compared only within one launch grid. On a GPU (--gpu) each also runs
on --draws fresh wide-range draws: a class whose members give different bytes is a WRONG
MERGE (the gate fails); true classes (same bytes on every draw) that the checker splits
are needless splits. Without a GPU (compiled here for sm90, all pointers aligned) it
reports the partition, which level classed each kernel, and the checker's speed.
Writes checker.json (and checker.png with --gpu: checker classes over true classes).
With --jobs N > 1 the kernels are gated in N spawned worker processes (sharing the one GPU
with --gpu), so Triton's JIT compiles in parallel; the max-order probe and the plot stay in
the main process, and the output is the same as with --jobs 1.

With --bind each configuration is classed for the corpus launch's integer arguments (the
classes then hold for exactly that launch, which is what the draws test), so a GEMM's loop over
its runtime K is followed turn by turn.

With --sblock, configurations whose launch grids differ only in x are compared across grids: where a kernel's
configurations launch over grid_x = r x C programs (C the gcd of their x extents, the same y and z), each is classed
with check.signature's sblock = r (check.prune.super_blocks: its r programs of one super-block walked and united,
at most 32), so a BLOCK
configuration and a 2 BLOCK one over the same elements can meet in one class; the truth is then the bytes of every
such configuration launched over its own grid, and a class whose members differ is a wrong merge as before.

With --grid each is classed for its launch grid's x extent (check.signature's grid_x: a loop LLVM
unswitched on program_id(0) < xnumel is followed); --steps and --nodes let a walk follow a long loop
to its end; --adversarial adds checker_adversarial.py's narrow, NaN and signed-zero draws to the truth.

    python benchmarks/checker_gate.py --out DIR [--gpu] [--kernels a,b|inductor_] [--sample N] [--draws 5] [--jobs N]
        [--bind] [--grid] [--sblock] [--steps N] [--nodes N] [--adversarial] [--fold]
"""
from __future__ import annotations

import argparse
import hashlib
import json
import multiprocessing
import os
import signal
import random
import sys
import time
from collections import Counter

import triton
import triton.language as tl
from rich.progress import track

sys.path.insert(0, os.path.dirname(__file__))
from corpus import SPECS  # noqa: E402
from gather import Gather  # noqa: E402

from bitorder import check  # noqa: E402
from bitorder.check.prune import compile_config, launch_ints, super_blocks  # noqa: E402


def _digest(t):
    return hashlib.sha256(t.contiguous().view(-1).view(__import__("torch").uint8).cpu().numpy().tobytes()).hexdigest()[:16]


def snapshot(spec, draws):
    """Per draw, copies of the outputs the kernel also reads (spec.inout), for run_config to restore."""
    return [{o: args[o].clone() for o in spec.inout} for args in draws]


def gate_draws(spec, n_draws: int, seed: int, adversarial: bool) -> list:
    """The gate's draws of one kernel's arguments on the GPU: n_draws wide-range ones, then (adversarial)
    checker_adversarial.py's narrow, NaN, signed-zero and payload variants of two more."""
    draws = [spec.make("cuda", seed + 1000 * (d + 1)) for d in range(n_draws)]
    if adversarial:
        from checker_adversarial import _variants
        draws += [a for d in range(2) for _, a in _variants(spec.make("cuda", seed + 77 * (d + 1)), spec.outputs,
                                                             seed + d)]
    return draws


def launch(spec, cfg, args, kept=None, **options):
    """Run configuration cfg on one draw's args, outputs zeroed first but those in `kept` (one draw of
    snapshot's copies) restored to their draw: every configuration reads the same input. Returns
    the kernel the JIT built (its asm holds the PTX and the TTGIR: the divisibility it assumed).
    options: further Triton compile options (checker_mutants.py's ir_override)."""
    for o in spec.outputs:
        if kept and o in kept:
            args[o].copy_(kept[o])
        else:
            args[o].zero_()
    return spec.fn[spec.grid({**args, **cfg.kwargs})](**args, **spec.fixed, **cfg.kwargs,
                                                      num_warps=cfg.num_warps, num_stages=cfg.num_stages, **options)


def run_config(spec, cfg, draws, kept=None, **options):
    """(PTX the JIT built, a digest of every output on every draw), each draw run by launch() (with options)."""
    ptx, digests = None, []
    for i, args in enumerate(draws):
        ptx = launch(spec, cfg, args, kept[i] if kept else None, **options)
        digests.append(tuple(_digest(args[o]) for o in spec.outputs))
    return ptx, tuple(digests)


def _configs(spec, sample, seed):
    return spec.space if not sample or sample >= len(spec.space) else random.Random(seed).sample(spec.space, sample)


def config_records(spec, indices, gpu: bool, n_draws: int, sample: int | None, seed: int, how=None,
                   deadline=None):
    """One record per configuration of `spec` at `indices` of its (sampled) space, in order:
    (config, launch grid, signature, level, truth or None, classing seconds), or (config, None,
    reason, ...) for one Triton cannot build. Configurations not started by `deadline` (an
    absolute time.time()) are left out. The draws are seeded: every process builds the same ones.
    how (a dict, see main): "bind" the launch's integers, "grid" its x extent, the walk's "steps" and
    "nodes", "adversarial" draws besides the wide ones (the truth is then the bytes on all of them)."""
    how = how or {}
    configs = _configs(spec, sample, seed)
    args0 = spec.make("cuda" if gpu else "cpu", seed)
    blocks = super_block_groups([tuple(spec.grid({**args0, **c.kwargs})) for c in configs]) if how.get("sblock") else {}
    draws = gate_draws(spec, n_draws, seed, how.get("adversarial")) if gpu else None
    kept = snapshot(spec, draws) if gpu else None
    out = []
    for i in indices:
        if deadline is not None and time.time() > deadline:
            break
        cfg = configs[i]
        try:
            if gpu:
                ptx, truth = run_config(spec, cfg, draws, kept)
            else:
                ptx, truth = compile_config(spec.fn, cfg, {**args0, **spec.fixed}, {}, "sm90"), None
        except Exception as e:   # a configuration Triton cannot build (shared memory, registers)
            out.append((cfg, None, f"{cfg}: {type(e).__name__}", None, None, 0.0))
            continue
        grid = spec.grid({**args0, **cfg.kwargs})
        ints = launch_ints(spec.fn, cfg, {**args0, **spec.fixed}, {}) if how.get("bind") else {}
        if how.get("bind") and len(grid) == 3 and grid[2] > 1:
            ints["grid_z"] = grid[2]   # a loop bounded by program_id(2) (split-K spans) is walked per z
        if how.get("grid"):
            ints["grid_x"] = grid[0]   # program_id(0) below the launch grid's x extent
        ints.update({k: how[k] for k in ("steps", "nodes") if how.get(k)})
        group = str(grid)
        if tuple(grid) in blocks and "grid_z" not in ints:   # compared across grids: a super-block's r programs
            ints["sblock"], group = blocks[tuple(grid)]
        ints = ints or None
        t0 = time.process_time()
        sig, lv = check.signature(ptx, ints), check.level(ptx, ints)
        out.append((cfg, group, sig, lv, truth, time.process_time() - t0))
    return out


def super_block_groups(grids) -> dict:
    """{launch grid: (r, the label of the group it is compared in)} for --sblock (check.prune.super_blocks)."""
    return {g: (r, f"({c}*r" + "".join(f", {v}" for v in g[1:]) + ")") for g, (r, c) in super_blocks(grids).items()}


def classes_of(spec, records, gpu: bool):
    """gate_kernel's answer from config_records' records (of one or several processes)."""
    groups, skipped, classing_s = {}, [], 0.0
    for cfg, grid, sig, lv, truth, cs in records:
        if grid is None:
            skipped.append(sig)
            continue
        classing_s += cs
        groups.setdefault(grid, []).append((cfg, sig, lv, truth))
    out = []
    for grid, members in groups.items():
        by_sig = {}
        for i, (_, sig, _, _) in enumerate(members):
            by_sig.setdefault(sig, []).append(i)
        classes = list(by_sig.values())
        levels = [lv for _, _, lv, _ in members]
        row = {"kernel": spec.name, "family": spec.family, "grid": grid, "configs": len(members),
               "source": _source(spec),
               "classes": len(classes), "v1": sum(lv.startswith("v1") for lv in levels),
               "v2": sum(lv.startswith("v2") for lv in levels),
               "v0_reasons": sorted({lv[4:] for lv in levels if lv.startswith("v0")})[:3],
               "members": [[_cfg(members[i][0]) for i in c] for c in classes]}
        if gpu:
            truth = [t for _, _, _, t in members]
            row["true_classes"] = len(set(truth))
            row["wrong_merges"] = [[_cfg(members[i][0]) for i in c] for c in classes if len({truth[i] for i in c}) > 1]
            row["certified_pairs"] = sum(len(c) * (len(c) - 1) // 2 for c in classes)
        out.append(row)
    return out, skipped, classing_s


def _source(spec) -> str:
    """A hash of the kernel's source and the @jit functions it calls (Triton's cache key of the
    function, which also counts the lines they start on: a kernel moved in its file reads as
    changed, which only costs a re-measurement): a stored truth is only about the code it ran."""
    return hashlib.sha256(spec.fn.cache_key.encode()).hexdigest()[:16]


def gate_kernel(spec, gpu: bool, n_draws: int, sample: int | None, seed: int, how=None):
    """Per launch grid of `spec`: the checker's classes (how: config_records's) and, with gpu, the
    true ones over n_draws draws. Returns (rows, skipped configurations, classing seconds)."""
    n = len(_configs(spec, sample, seed))
    return classes_of(spec, config_records(spec, range(n), gpu, n_draws, sample, seed, how), gpu)


def _cfg(c):
    return {**c.kwargs, "num_warps": c.num_warps, "num_stages": c.num_stages}


@triton.jit
def _max_pairs(a_ptr, b_ptr, y_ptr):
    i = tl.arange(0, 8)
    tl.store(y_ptr + i, tl.maximum(tl.load(a_ptr + i), tl.load(b_ptr + i)))


def max_order_probe():
    """Whether the H200's max.f32 (as tl.maximum and tl.max lower) depends on operand order
    for signed zeros and NaNs: if not, max trees could be merged as sets (not done yet)."""
    import torch
    vals = torch.tensor([0.0, -0.0, float("nan"), 1.0, -0.0, 0.0, 1.0, float("nan")], device="cuda")
    swapped = torch.roll(vals, 4)
    ab, ba = torch.empty(8, device="cuda"), torch.empty(8, device="cuda")
    compiled = _max_pairs[(1,)](vals, swapped, ab)
    _max_pairs[(1,)](swapped, vals, ba)
    bits = lambda t: [hex(v & 0xFFFFFFFF) for v in t.view(torch.int32).tolist()]  # noqa: E731
    ops = sorted({ln.split()[0] for ln in compiled.asm["ptx"].splitlines() if ln.strip().startswith("max")})
    return {"ptx_ops": ops, "a": bits(vals), "b": bits(swapped), "max(a,b)": bits(ab), "max(b,a)": bits(ba),
            "order_independent": bits(ab) == bits(ba)}


def plot(rows, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    per = {}
    for r in rows:
        a = per.setdefault(r["kernel"], [0, 0])
        a[0] += r["classes"]
        a[1] += r["true_classes"]
    names = sorted(per)
    fig, ax = plt.subplots(figsize=(max(12, 0.14 * len(names)), 4.5))   # a readable bar per kernel, 130 and more
    ax.bar(names, [per[n][0] / per[n][1] for n in names])
    ax.axhline(1.0, color="k", lw=0.8)
    ax.axhline(1.5, color="r", ls="--", lw=0.8, label="1.5 (reductions' target)")
    ax.set_ylabel("checker classes / true classes")
    ax.tick_params(axis="x", rotation=90, labelsize=6)
    ax.legend()
    fig.tight_layout()
    ax.set_xlim(-0.6, len(names) - 0.4)
    fig.savefig(path, dpi=120)


def _chunk_worker(task):
    """Pool entry point (top level, so that spawn can find it): (name, config_records) for one task
    tuple. The worker builds its own tensors (CUDA with --gpu); records are plain data."""
    name, indices, gpu, n_draws, sample, seed, deadline, how = task
    return name, config_records(SPECS[name], indices, gpu, n_draws, sample, seed, how, deadline)


def gate_all(names, gpu, n_draws, sample, seed, deadline, jobs, how=None, chunk=4):
    """Yield (name, gate_kernel's result, or None where no configuration started before
    `deadline`) for every name, in order.

    jobs 1: one configuration after another in this process. jobs > 1: a spawn Pool of `jobs`
    workers (never fork: CUDA) takes `chunk` configurations of one kernel at a time (a bound
    GEMM's walk takes seconds per configuration: per-kernel tasks left 12 workers idle behind
    8 kernels, 2026-11-30f), each checking the deadline before every configuration."""
    tasks = []
    for n in names:
        size = len(_configs(SPECS[n], sample, seed))
        step = size if jobs <= 1 else chunk
        tasks += [(n, range(i, min(i + step, size)), gpu, n_draws, sample, seed, deadline, how)
                  for i in range(0, size, step)]
    if jobs <= 1:
        results = map(_chunk_worker, tasks)
    else:
        pool = multiprocessing.get_context("spawn").Pool(min(jobs, len(tasks)))
        results = pool.imap(_chunk_worker, tasks, chunksize=1)
    def merge(name, chunks):
        got = [r for c in chunks for r in c]
        return classes_of(SPECS[name], got, gpu) if got else None
    yield from Gather(results, Counter(t[0] for t in tasks), merge)
    if jobs > 1:
        pool.close()
        pool.join()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--gpu", action="store_true")
    ap.add_argument("--kernels", default="", help="comma-separated corpus names (default: all)")
    ap.add_argument("--sample", type=int, default=0, help="configurations per kernel (default: all)")
    ap.add_argument("--draws", type=int, default=5)
    ap.add_argument("--budget", type=float, default=0, help="seconds; kernels not reached are listed")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--jobs", type=int, default=1, help="worker processes gating kernels in parallel (spawn)")
    ap.add_argument("--bind", action="store_true",
                    help="class each configuration for the corpus launch's integer arguments (check.signature's args)")
    ap.add_argument("--grid", action="store_true",
                    help="class each configuration for its launch grid's x extent (check.signature's grid_x)")
    ap.add_argument("--sblock", action="store_true",
                    help="compare configurations across launch grids that differ in x (check.signature's sblock)")
    ap.add_argument("--steps", type=int, default=0, help="instructions a walk may execute (default 20,000)")
    ap.add_argument("--nodes", type=int, default=0, help="tree nodes a walk may make (default 2,000,000)")
    ap.add_argument("--adversarial", action="store_true",
                    help="with --gpu, the truth also on narrow, NaN and signed-zero draws (checker_adversarial.py)")
    ap.add_argument("--fold", action="store_true",
                    help="fold loops over a runtime bound (check/loops.py's switch, BITORDER_FOLD_LOOPS=1, in every worker)")
    ap.add_argument("--fold-const", action="store_true",
                    help="fold loops of a constant trip count too (loops.CONST, BITORDER_FOLD_CONST=1, in every worker)")
    ap.add_argument("--fold-stores", action="store_true",
                    help="fold constant-trip loops that store (storefold.STORES, BITORDER_FOLD_STORES=1, in every worker; "
                         "the default since 2026-12-05d)")
    a = ap.parse_args()
    if a.fold_const:
        os.environ["BITORDER_FOLD_CONST"] = "1"
        from bitorder.check import loops
        loops.CONST = loops.ON
    if a.fold:     # (spawned workers import bitorder afresh: the environment carries the switch to them)
        os.environ["BITORDER_FOLD_LOOPS"] = "1"
        from bitorder.check import loops
        loops.ON = True
    if a.fold_stores:
        os.environ["BITORDER_FOLD_STORES"] = "1"
        from bitorder.check import storefold
        storefold.STORES = storefold.loops.CONST
    if a.sblock and a.grid:
        sys.exit("--sblock and --grid: a super-block walk substitutes program_id(0), a grid gives its range")
    how = {"bind": a.bind, "grid": a.grid, "sblock": a.sblock, "steps": a.steps, "nodes": a.nodes,
           "adversarial": a.adversarial}
    os.makedirs(a.out, exist_ok=True)
    # a name ending in "_" is a prefix: every corpus kernel it starts (inductor_: the 21 captured)
    names = list(dict.fromkeys(m for n in a.kernels.split(",") if n
                               for m in ([k for k in SPECS if k.startswith(n)] if n.endswith("_") else [n]))) or list(SPECS)
    unknown = set(names) - set(SPECS)
    if unknown:
        sys.exit(f"not in the corpus: {sorted(unknown)}; it has {sorted(SPECS)}")
    rows, skipped, not_reached, classing_s, t0 = [], {}, [], 0.0, time.time()
    per_kernel_s = {}
    deadline = t0 + a.budget if a.budget else None
    results = gate_all(names, a.gpu, a.draws, a.sample or None, a.seed, deadline, a.jobs, how)
    # `timeout` sends SIGTERM: what was gated so far is still written (kernels left are listed)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    stopped, done = False, set()
    try:
        for name, res in track(results, total=len(names), description="checker gate"):
            done.add(name)
            if res is None:
                not_reached.append(name)
                continue
            r, sk, cs = res
            rows += r
            classing_s += cs
            per_kernel_s[name] = round(cs, 2)
            if sk:
                skipped[name] = sk
            # a line per kernel as it ends: a log read after a kill shows how far the gate got
            print(f"{name}: {sum(x['configs'] for x in r)} configurations, {sum(x['classes'] for x in r)} classes"
                  + (f", {sum(len(x['wrong_merges']) for x in r)} wrong merges" if a.gpu else "")
                  + f" ({time.time() - t0:.0f} s)", flush=True)
    except SystemExit:
        stopped = True
        not_reached += [n for n in names if n not in done]
    n_cfg = sum(r["configs"] for r in rows)
    from bitorder.check import loops, magic, memory, storefold
    summary = {"gpu": a.gpu, **how, "fold_loops": loops.ON, "fold_const": loops.CONST, "fold_stores": storefold.STORES, "magic_div": magic.ON, "byte_parts": memory.BYTE_PARTS,
               "kernels": len({r["kernel"] for r in rows}), "grids": len(rows), "configs": n_cfg,
               "v1_classed": sum(r["v1"] for r in rows), "classes": sum(r["classes"] for r in rows),
               "checker_configs_per_s": round(n_cfg / max(classing_s, 1e-9), 1), "not_reached": not_reached,
               "skipped_configs": sum(len(v) for v in skipped.values()),
               "classing_s_by_kernel": dict(sorted(per_kernel_s.items(), key=lambda kv: -kv[1]))}
    if a.gpu:
        import torch
        summary.update(device=torch.cuda.get_device_name(), draws=a.draws,
                       true_classes=sum(r["true_classes"] for r in rows),
                       certified_pairs=sum(r["certified_pairs"] for r in rows),
                       wrong_merges=sum(len(r["wrong_merges"]) for r in rows), stopped_by_sigterm=stopped,
                       max_order_probe=None if stopped else max_order_probe())
        plot(rows, os.path.join(a.out, "checker.png"))
    for r in rows:
        print(f"{r['kernel']:22s} grid {r['grid']:16s} configs {r['configs']:3d}  v1 {r['v1']:3d}  classes "
              f"{r['classes']:3d}" + (f"  true {r['true_classes']:3d}  wrong {len(r['wrong_merges'])}" if a.gpu else "")
              + (f"  v0: {r['v0_reasons'][0][:60]}" if r["v0_reasons"] else ""))
    with open(os.path.join(a.out, "checker.json"), "w") as f:
        json.dump({"summary": summary, "grids": rows, "skipped": skipped}, f, indent=1)
    print(json.dumps({k: v for k, v in summary.items() if k != "max_order_probe"}), flush=True)
    if stopped:
        # leave now: tearing the Pool down after a SIGTERM can wait forever on a queue lock that a
        # killed worker held (2026-11-30f: the job outlived its timeout by minutes)
        sys.stderr.flush()
        os._exit(1)
    return 1 if summary.get("wrong_merges") else 0


if __name__ == "__main__":
    sys.exit(main())
