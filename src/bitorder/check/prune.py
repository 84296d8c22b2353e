"""Autotuner pruning: keep only the configurations in the reference's bitwise class.

    @triton.autotune(configs, key=[...], prune_configs_by={"early_config_prune": bitorder.check.prune()})
    @triton.jit
    def kernel(...): ...

Each configuration is compiled without a launch (bitorder.compile, so a machine without a
GPU can prune), specialised exactly as Triton's JIT would specialise these arguments, and
classed by bitorder.check.signature. The reference is the first configuration unless
another index or a triton.Config is given.
"""
from __future__ import annotations

import inspect
import math
import sys
import time

from .signature import equivalent, signature


def _autotuner():
    """The Autotuner that is calling us (Triton 3.6 hands early_config_prune neither it nor its kernel)."""
    frame = inspect.currentframe()
    while frame is not None:
        me = frame.f_locals.get("self")
        if me is not None and type(me).__name__ == "Autotuner" and hasattr(me, "fn"):
            return me
        frame = frame.f_back
    raise RuntimeError("bitorder.check.prune() must be called by triton.autotune, or be given kernel= "
                       "(and no bind='key')")


def _autotuner_fn():
    """The JITFunction behind the Autotuner that is calling us."""
    from ..compiler.harness import jit_function
    return jit_function(_autotuner().fn)


def _target():
    try:
        import torch
        if torch.cuda.is_available():
            cc = torch.cuda.get_device_capability()
            return f"sm{cc[0]}{cc[1]}"
    except Exception:
        pass
    return "sm90"


def _specialise(fn, config, named_args: dict, kwargs: dict, target: str):
    """(signature types, constexprs, aligned names, {PTX parameter index: (name, int)}) of `fn` under one
    triton.Config, with Triton's own argument specialisation (an int of 1 becomes a constexpr;
    the PTX parameters are the remaining arguments in order)."""
    from triton._C.libtriton import native_specialize_impl
    from triton.backends import backends

    from ..compiler import parse_target

    backend = backends["nvidia" if parse_target(target).backend == "cuda" else "amd"].compiler
    values = {**named_args, **kwargs, **config.kwargs}
    signature_types, constexprs, aligned, ints = {}, {}, [], {}
    for p in fn.params:
        if p.name in values:
            v = values[p.name]
        elif p.has_default:
            v = p.default
        else:
            raise ValueError(f"no value for {fn.__name__}'s argument {p.name}")
        if p.is_constexpr:
            constexprs[p.name] = v
            continue
        ty, spec = native_specialize_impl(backend, v, p.is_const, not p.do_not_specialize,
                                          not p.do_not_specialize_on_alignment)
        if ty == "constexpr":
            constexprs[p.name] = spec
        else:
            if isinstance(v, int) and not isinstance(v, bool):
                ints[len(signature_types)] = (p.name, v)
            signature_types[p.name] = ty
            if spec == "D":
                aligned.append(p.name)
    return signature_types, constexprs, aligned, ints


def config_options(config) -> dict:
    """The compile options a triton.Config sets: num_warps and num_stages, and num_ctas and maxnreg only where set
    (the defaults compile as they would unnamed: the same cache entries)."""
    opts = {k: getattr(config, k) for k in ("num_warps", "num_stages") if getattr(config, k, None) is not None}
    opts.update({k: v for k in ("num_ctas", "maxnreg") if (v := getattr(config, k, None)) not in (None, 1)})
    return opts


def _compile(fn, config, specialised, target: str, **options):
    """Compile `fn` under `config` with _specialise's answer (and further Triton options)."""
    from ..compiler import compile as compile_kernel

    signature_types, constexprs, aligned, _ = specialised
    return compile_kernel(fn, target, signature=signature_types, constexprs=constexprs, aligned=aligned,
                          **config_options(config), **options)


_WORKER_FN = None   # the JITFunction a worker of _class_all's pool loaded


def _resolve(module, qualname: str):
    """The @triton.jit function `qualname` names in `module` (under any autotune or heuristics wrapper), or None."""
    from ..compiler.harness import jit_function
    fn = module
    for part in qualname.split("."):
        fn = getattr(fn, part, None)
    return jit_function(fn)


def _load_worker_fn(module: str, qualname: str) -> None:
    """Pool initializer: the kernel, imported by its module and name (a spawned worker has no other copy)."""
    global _WORKER_FN
    import importlib
    _WORKER_FN = _resolve(importlib.import_module(module), qualname)


def _class_task(task):
    """One configuration compiled and classed in a worker: (signature types, constexprs, aligned, target, compile
    options, bound integers or None, store) -> its signature."""
    from ..compiler import compile as compile_kernel
    signature_types, constexprs, aligned, target, options, ints, store = task
    return signature(compile_kernel(_WORKER_FN, target, signature=signature_types, constexprs=constexprs,
                                    aligned=aligned, **options), ints, store)


def _importable(fn):
    """(module, qualname) a spawned worker can import fn's kernel by, or None: a script's __main__, a closure, or a
    name that holds something else than fn here (`k = triton.jit(f)` leaves the plain f under f's name)."""
    py = getattr(fn, "fn", None)
    module, qualname = getattr(py, "__module__", None), getattr(py, "__qualname__", "")
    if not module or module in ("__main__", "__mp_main__") or "<locals>" in qualname or module not in sys.modules:
        return None
    return (module, qualname) if _resolve(sys.modules[module], qualname) is fn else None


def _class_all(fn, configs, specs, target: str, jobs: int, ints, store: bool):
    """(each configuration's signature, the processes that compiled and classed them): in this process, or over
    `jobs` spawned workers (never forked: an autotuner's process holds CUDA) where the kernel can be imported by its
    name. ints: each configuration's bound integers, or None; store: signature's."""
    import pickle
    tasks = [(s[0], s[1], s[2], target, config_options(c), i, store) for c, s, i in zip(configs, specs, ints)]
    where = _importable(fn) if jobs > 1 and len(configs) > 1 else None
    try:
        pickle.dumps(tasks)   # constexpr values a worker cannot receive: classed here instead
    except Exception:
        where = None
    if where is None:
        return [signature(_compile(fn, c, s, target), i, store) for c, s, i in zip(configs, specs, ints)], 1
    import multiprocessing
    jobs = min(jobs, len(tasks))
    with multiprocessing.get_context("spawn").Pool(jobs, _load_worker_fn, where) as pool:
        return pool.map(_class_task, tasks), jobs


def _ints(specialised, names=None) -> dict:
    """{PTX parameter index: value} of _specialise's integer arguments (those named in `names`, or all)."""
    return {i: v for i, (name, v) in specialised[3].items() if names is None or name in names}


def compile_config(fn, config, named_args: dict, kwargs: dict, target: str, **options):
    """Compile `fn` under one triton.Config with Triton's own argument specialisation (options: further Triton
    compile options, e.g. ir_override)."""
    return _compile(fn, config, _specialise(fn, config, named_args, kwargs, target), target, **options)


def launch_ints(fn, config, named_args: dict, kwargs: dict, target: str = "sm90", names=None) -> dict:
    """{PTX parameter index: value} of the call's integer arguments (those named in `names`, or
    all): check.signature's args for this launch."""
    return _ints(_specialise(fn, config, named_args, kwargs, target), names)


SBLOCK_MAX = 32   # programs of a super-block walked per configuration (super_blocks)


def super_blocks(grids, max_programs: int = SBLOCK_MAX) -> dict:
    """{grid: (r, C)} for the launch grids (x, y, z) that differ from another only in x: they launch r x C programs
    along x, so each configuration is classed with check.signature's sblock = r and configurations over the same
    elements in blocks of other sizes can meet. Among the grids of one (y, z), C is the common divisor of two or
    more x extents that the most of them reach in at most max_programs programs (each program of a super-block is
    a walk), the one needing the fewest walks on a tie; the grids it leaves out are grouped again among themselves. A grid that meets no
    other is left out: it is compared within its own grid. Any C that divides x is sound (a configuration's class
    then holds for its launch of r x C programs); C decides only which configurations can meet."""
    by_yz: dict = {}
    for g in {tuple(g) for g in grids}:
        by_yz.setdefault(g[1:], []).append(g)
    out = {}
    for gs in by_yz.values():
        left = sorted(gs)
        while len(left) >= 2:
            xs = [g[0] for g in left]
            common = {math.gcd(*xs)} | {math.gcd(a, b) for i, a in enumerate(xs) for b in xs[i + 1:]}
            reach = {d: [x // d for x in xs if x % d == 0 and x // d <= max_programs] for d in common}
            c = max(common, key=lambda d: (len(reach[d]), -sum(reach[d]), d))   # the most grids, then the fewest walks
            kept = [g for g in left if g[0] % c == 0 and g[0] // c <= max_programs]
            if len(kept) < 2:
                break
            out.update({g: (g[0] // c, c) for g in kept})
            left = [g for g in left if g not in kept]
    return out


def launch_frames(grids) -> list:
    """Per launch grid (x, y, z), (check.signature's args for it, the frame its signature is compared within):
    ({"sblock": r}, ("super-blocks", C, (y, z))) where super_blocks gives it r and C, else (None, the grid). Two
    configurations are one class when both their signatures and their frames are equal."""
    blocks = super_blocks(grids)
    return [({"sblock": blocks[g][0]}, ("super-blocks", blocks[g][1], g[1:])) if g in blocks else (None, g)
            for g in map(tuple, grids)]


def classes_of(keys) -> list:
    """Indices grouped by equal key, in first-seen order: the classes of answers computed already (a key is a
    signature, or a signature and the frame launch_frames gives it: one class is an equal signature in an equal
    frame)."""
    by_key: dict = {}
    for i, k in enumerate(keys):
        by_key.setdefault(k, []).append(i)
    return list(by_key.values())


def parting(texts, frames, a, b) -> str:
    """Where configuration b's class parts from a's (frames: per configuration, (check.signature's args, frame,
    grid) as launch_frames gives them, with the grid): the first difference where both are classed alike, else the
    launches that keep them apart (other grids, or other super-block program counts)."""
    (at_a, frame_a, grid_a), (at_b, frame_b, grid_b) = frames[a], frames[b]
    if (at_a, frame_a) == (at_b, frame_b):
        return equivalent(texts[a], texts[b], at_a).explanation
    programs = f", super-block programs {at_b['sblock']} vs {at_a['sblock']}" if at_a and at_b else ""
    return f"launched otherwise (grid {grid_b} vs {grid_a}{programs}): not compared tree by tree"


def grid_extents(g) -> tuple:
    """A launch grid as Triton takes it (an int, or 1 to 3 positive extents) as (x, y, z); a ValueError else."""
    g = tuple(int(v) for v in (g if isinstance(g, (tuple, list)) else (g,)))
    if not 1 <= len(g) <= 3 or min(g) < 1:
        raise ValueError(f"grid must give 1 to 3 positive extents, not {g!r}")
    return g + (1,) * (3 - len(g))


def _launch_grid(grid, named_args: dict, kwargs: dict, config) -> tuple:
    """The (x, y, z) grid a launch of `config` uses: `grid` called with Triton's META (the arguments and the
    configuration's constexprs), or `grid` itself where it is a tuple."""
    return grid_extents(grid({**named_args, **kwargs, **config.all_kwargs()}) if callable(grid) else grid)


def prune(reference=0, target: str | None = None, kernel=None, bind=None, verbose: bool = False, jobs: int = 1,
          store: bool = True, grid=None):
    """An early_config_prune that keeps the configurations bitwise-equivalent to `reference`
    (an index into the configs, or a triton.Config compiled and handed in). Its `.last` holds the
    latest call's counts and seconds; verbose=True also prints them (one line on stderr a call).
    jobs > 1 compiles and classes the configurations in that many spawned processes, each importing the
    kernel's module (so its top-level code runs there too); a kernel defined in a script's __main__ or in
    a function is compiled here, one configuration after another.
    grid: the launch grid, as given to kernel[grid] (a function of META, e.g. lambda META: (triton.cdiv(n,
    META["BLOCK"]),), or a tuple). Without it every configuration is classed for one and the same grid, which is
    right where the grid does not depend on the configuration. With it, configurations whose grids differ only in x
    are classed over super-blocks (super_blocks: check.signature's sblock), so a BLOCK configuration and a 2 BLOCK
    one over the same elements are kept together when they store the same; configurations whose grids differ
    otherwise are never kept together. For a grid cdiv(n, BLOCK) that happens where n is a multiple of the
    largest BLOCK; for another n each block size is its own class.
    store (default on): the classes are kept on disk (check.signature's store), so a process that tunes the same
    kernel again (the next training job) compiles from Triton's cache and reads its classes back, no walk.
    bind: None (classes hold for every launch), "key" (the autotuner's key arguments that are
    integers take this call's values) or "all" (every integer argument does). Triton reuses the
    tuned choice for later calls with the same key, so "all" is right only where the key fixes the
    other integers (strides of contiguous operands, say); bound, a GEMM's loop over a runtime K is
    followed turn by turn and its BLOCK_K / num_stages twins can merge."""
    if bind not in (None, "key", "all"):
        raise ValueError(f"bind must be None, 'key' or 'all', not {bind!r}")
    if isinstance(reference, bool) or not (isinstance(reference, int) or hasattr(reference, "all_kwargs")):
        raise TypeError(f"reference must be an index into the configs or a triton.Config, not {reference!r}")
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise ValueError(f"jobs must be a positive int, not {jobs!r}")

    def early_config_prune(configs, named_args, **kwargs):
        fn = kernel or _autotuner_fn()
        tgt = target or _target()
        names = list(_autotuner().keys) if bind == "key" else None

        def sig(c):   # specialised once: the compile and the bound integers both read it
            spec = _specialise(fn, c, named_args, kwargs, tgt)
            return signature(_compile(fn, c, spec, tgt), _ints(spec, names) if bind else None, store)
        if isinstance(reference, int) and not -len(configs) <= reference < len(configs):
            raise IndexError(f"reference {reference} is not one of the {len(configs)} configurations left to prune")
        started = time.perf_counter()
        specs = [_specialise(fn, c, named_args, kwargs, tgt) for c in configs]
        ints = [_ints(s, names) if bind else None for s in specs]
        where = [None] * len(configs)   # what a signature is compared within: one grid, or one super-block frame
        if grid is not None:   # (the reference's grid last, where it is a Config of its own)
            grids = [_launch_grid(grid, named_args, kwargs, c) for c in configs] + \
                ([] if isinstance(reference, int) else [_launch_grid(grid, named_args, kwargs, reference)])
            frames = launch_frames(grids)
            for k, (at, frame) in enumerate(frames[:len(configs)]):
                ints[k] = {**(ints[k] or {}), **at} if at else ints[k]
                where[k] = frame
        sigs, used = _class_all(fn, configs, specs, tgt, jobs, ints, store)
        sigs = list(zip(sigs, where))
        if isinstance(reference, int):
            ref = sigs[reference]
        elif grid is None:
            ref = (sig(reference), None)
        else:
            spec = _specialise(fn, reference, named_args, kwargs, tgt)
            at, frame = frames[-1]
            at = {**(_ints(spec, names) if bind else {}), **(at or {})}
            ref = (signature(_compile(fn, reference, spec, tgt), at or None, store), frame)
        kept = [c for c, s in zip(configs, sigs) if s == ref]
        last = early_config_prune.last = {"configs": len(configs), "kept": len(kept), "classes": len(set(sigs)),
                                          "seconds": round(time.perf_counter() - started, 3), "jobs": used}
        if verbose:
            print(f"bitorder.check.prune({getattr(fn, '__name__', fn)}): {last['configs']} configurations in "
                  f"{last['classes']} bitwise classes; kept the reference's {last['kept']} "
                  f"({last['seconds']:.1f} s to compile and class)", file=sys.stderr)
        return kept
    early_config_prune.last = None
    return early_config_prune
