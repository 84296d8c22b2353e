"""The `bitorder` command: report | check | probe | compile."""
from __future__ import annotations

import argparse
import contextlib
import importlib.util
import os
import sys
from pathlib import Path


def _load_jit(spec: str):
    """`path/to/file.py:fn` or `package.module:fn` -> the @triton.jit function it names (the function under an
    @triton.autotune or @triton.heuristics wrapper); a clear error, not a traceback, where it cannot be loaded."""
    return _jit_of(_load(spec), spec)


def _load(spec: str):
    """What `path/to/file.py:fn` or `package.module:fn` names, as loaded (a wrapper kept); a clear error where it
    cannot be loaded."""
    path, _, name = spec.rpartition(":")
    if not path or not name:
        raise SystemExit(f"expected FILE.py:FUNCTION or MODULE:FUNCTION, got {spec!r}")
    if not path.endswith(".py"):
        try:
            return getattr(importlib.import_module(path), name)
        except (ImportError, AttributeError) as e:
            raise SystemExit(f"cannot load {spec}: {e}") from None
    if not Path(path).is_file():
        raise SystemExit(f"cannot load {spec}: no file {path}")
    mod_spec = importlib.util.spec_from_file_location(Path(path).stem, path)
    if mod_spec is None:
        raise SystemExit(f"cannot load {path}")
    module = importlib.util.module_from_spec(mod_spec)
    try:
        mod_spec.loader.exec_module(module)
    except ImportError as e:
        hint = "; a file inside a package: name it as MODULE:FUNCTION (package.module:fn)" \
            if "relative import" in str(e) else ""
        raise SystemExit(f"cannot load {path}: {e}{hint}") from None
    except SyntaxError as e:
        raise SystemExit(f"cannot load {path}: {e}") from None
    try:
        return getattr(module, name)
    except AttributeError:
        raise SystemExit(f"{path} has no {name}") from None


def _jit_of(fn, spec: str):
    """The @triton.jit function fn is, or wraps (autotune and heuristics keep it as .fn); else a clear error."""
    from .compiler.harness import jit_function, wrappers
    jit = jit_function(fn)
    if jit is None:
        raise SystemExit(f"{spec} is not a @triton.jit function (it is a {type(list(wrappers(fn))[-1]).__name__})")
    return jit


def _heuristic_names(fn) -> list:
    """The constexprs an @triton.heuristics wrapper among fn's wrappers computes from a launch's arguments."""
    from .compiler.harness import wrappers
    names = []
    for w in wrappers(fn):
        if type(w).__name__ == "Heuristics" and isinstance(getattr(w, "values", None), dict):
            names += list(w.values)
    return names


def _autotune_configs(fn) -> list:
    """The triton.Config list of the @triton.autotune wrapper among fn's wrappers, or [] where there is none."""
    from .compiler.harness import wrappers
    for w in wrappers(fn):
        if type(w).__name__ == "Autotuner" and hasattr(w, "configs"):
            return list(w.configs)
    return []


def _points(args, tuned):
    """((name, constexprs, compile options) of each configuration to compile, what to call them): the --warps x
    --stages x --space product, or, for an autotuned kernel given none of those, the decorator's own configurations."""
    import itertools
    const = _kv(args.const, _literal)
    if tuned and args.warps is None and args.stages is None and not args.space:
        from .check.prune import config_options
        out = []
        for c in tuned:
            opts = config_options(c)
            name = " ".join([f"warps={c.num_warps}", f"stages={c.num_stages}"] +
                            [f"{k}={v}" for k, v in opts.items() if k not in ("num_warps", "num_stages")] +
                            [f"{k}={v}" for k, v in c.kwargs.items()])
            out.append((name, {**const, **c.kwargs}, opts))
        return out, "autotune configuration"
    space = _kv(args.space, lambda v: [_literal(x) for x in v.split(",")])
    keys = list(space)
    out = []
    for warps, stages, *vals in itertools.product(args.warps or [4], args.stages or [3], *space.values()):
        name = " ".join([f"warps={warps}", f"stages={stages}"] + [f"{k}={v}" for k, v in zip(keys, vals)])
        out.append((name, {**const, **dict(zip(keys, vals))}, {"num_warps": warps, "num_stages": stages}))
    return out, "configuration"


_COMMON = None   # (fn, target, signature types, aligned names): what every configuration's compile shares


def _compile_one(point):
    """(name, the Compiled or None, None or why it failed) of one configuration (name, constexprs, options)."""
    from .compiler import compile as compile_kernel
    fn, target, sig, aligned = _COMMON
    name, consts, options = point
    try:
        return name, compile_kernel(fn, target, signature=sig, constexprs=consts, aligned=aligned, **options), None
    except Exception as e:   # triton raises CompilationError, RuntimeError, AssertionError ...
        return name, None, (str(e).strip().splitlines() or [type(e).__name__])[-1][:160]


@contextlib.contextmanager
def _pool(jobs, common):
    """check.tritoncache.forked_map with `common` (fn, target, signature types, aligned names) set for the workers
    to inherit: a forked worker compiles the loaded kernel."""
    from .check.tritoncache import forked_map
    global _COMMON
    _COMMON = common
    with forked_map(jobs) as run:
        yield run


def _with_ttgir(path: Path):
    """The PTX file's text, with the TTGIR of the same name beside it where there is one (Triton's cache keeps
    NAME.ptx and NAME.ttgir together): the checker then knows the arguments the code assumed multiples of 16."""
    ptx = path.read_text()
    ttgir = path.with_suffix(".ttgir")
    return {"ptx": ptx, "ttgir": ttgir.read_text()} if ttgir.is_file() else ptx


def _kv(items, parse_value):
    out = {}
    for item in items or ():
        k, sep, v = item.partition("=")
        if not sep:
            raise SystemExit(f"expected NAME=VALUE, got {item!r}")
        out[k] = parse_value(v)
    return out


def _literal(v: str):
    import ast
    try:
        return ast.literal_eval(v)
    except (ValueError, SyntaxError):
        return v


def _compile_configurations(args, console):
    """`bitorder check` of FILE.py:FN: (texts, names, failed, compile wall seconds, what to call them) of the
    kernel's configurations, compiled in `--jobs` processes with a progress bar; SystemExit where none compiled."""
    import time

    from rich.progress import Progress
    failed = []   # (name, why): configurations that did not compile
    if not args.target.startswith("sm"):
        raise SystemExit(f"the checker reads PTX: target {args.target!r} compiles to AMDGCN, which it does not read yet")
    loaded = _load(args.inputs[0])
    fn = _jit_of(loaded, args.inputs[0])
    points, noun = _points(args, _autotune_configs(loaded))
    common = (fn, args.target, _kv(args.sig, str), tuple(args.aligned))   # (parsed once, not per configuration)
    jobs = max(1, min(args.jobs or os.cpu_count() or 1, len(points)))
    started = time.perf_counter()
    texts, names, metas = [], [], []
    with _pool(jobs, common) as run, Progress(console=console, transient=True) as bar:
        task = bar.add_task(f"compiling ({_count(jobs, 'process')})", total=len(points))
        for point, (name, out, why) in zip(points, run(_compile_one, points)):   # in the points' order
            if why is None:
                texts.append(out)
                names.append(name)
                metas.append({**point[1], **point[2]})   # constexprs, num_warps, num_stages: what --grid reads
            else:   # one configuration's failure (resources, shapes) is reported, not fatal
                failed.append((name, why))
            bar.advance(task)
    compiled_s = time.perf_counter() - started
    if not texts and len({why for _, why in failed}) == 1:   # one cause for every configuration: said once
        if args.json:
            _write_classes(args.json, [], failed)
        unset = [h for h in _heuristic_names(loaded) if repr(h) in failed[0][1]]
        hint = f" ({', '.join(unset)}: set by @triton.heuristics from a launch's arguments; give " \
               f"{' '.join(h + '=VALUE' for h in unset)} with --const)" if unset else ""
        raise SystemExit(f"no configuration compiled: {failed[0][1]}{hint}")
    return texts, names, failed, compiled_s, noun, metas


def _grid_frames(args, metas):
    """Per configuration, (check.signature's args, the frame its class is compared in, its grid) under --grid:
    configurations whose grids differ from another's in x alone are classed over super-blocks (sblock), the
    others within their own grid."""
    from .check.prune import grid_extents, launch_frames
    values = _kv(args.launch, int)
    grids = []
    for meta in metas:
        try:
            g = eval(args.grid, {"__builtins__": {}}, {"cdiv": lambda a, b: -(-a // b), "max": max, "min": min,
                                                        **meta, **values})
        except Exception as e:   # a name neither a constexpr, an option nor a --launch value: said once
            raise SystemExit(f"--grid {args.grid!r}: {type(e).__name__}: {e} (its names: constexprs, num_warps, "
                             f"num_stages, and --launch NAME=INT values)") from None
        try:
            grids.append(grid_extents(g))
        except (ValueError, TypeError) as e:
            raise SystemExit(f"--grid {args.grid!r}: {e}") from None
    return [(at, frame, g) for (at, frame), g in zip(launch_frames(grids), grids)]


def _check(args) -> int:
    """`bitorder check`: the bitwise classes of PTX files, of a kernel's configurations compiled here (no GPU), or of
    each kernel in a Triton cache folder (`_check_cache`).
    A configuration Triton cannot compile is listed with its error, not classed; the exit status is 1 if any was.
    An @triton.autotune kernel given no --warps, --stages or --space is compiled under its own configurations."""
    import time

    from rich.console import Console
    from rich.progress import Progress
    from rich.table import Table

    from . import check
    from .check.prune import classes_of, parting
    console = Console()
    if args.launch and not args.grid:
        raise SystemExit("--launch gives the values --grid reads: give --grid too")
    if len(args.inputs) == 1 and Path(args.inputs[0]).is_dir():
        if args.grid:
            raise SystemExit("--grid: a cache folder does not say how each variant was launched (TorchInductor's "
                             "kernels excepted: their grids are read off their code); give FILE.py:FN")
        return _check_cache(args, console)
    if args.kernel is not None:
        raise SystemExit("--kernel selects a kernel of a Triton cache folder: give the folder")
    if all(x.endswith(".ptx") for x in args.inputs):
        what, noun, failed, compiled_s = None, "PTX file", [], None   # (nothing compiled)
        texts, names = [], list(args.inputs)
        for x in args.inputs:
            try:
                texts.append(_with_ttgir(Path(x)))
            except OSError as e:
                raise SystemExit(f"cannot read {x}: {e.strerror}") from None
    else:
        if len(args.inputs) != 1:
            raise SystemExit("expected PTX files, or one FILE.py:FUNCTION or MODULE:FUNCTION")
        what = args.inputs[0]
        texts, names, failed, compiled_s, noun, metas = _compile_configurations(args, console)
    frames = [(None, None, None)] * len(texts)
    if args.grid:
        if what is None:
            raise SystemExit("--grid classes a kernel's configurations over their launch grids: give FILE.py:FN")
        frames = _grid_frames(args, metas)
        names = [f"{n} grid={g[0] if g[1:] == (1, 1) else g}" for n, (_, _, g) in zip(names, frames)]
    started = time.process_time()   # the checker's own time, one core (compile and I/O left out)
    try:
        with Progress(console=console, transient=True) as bar:   # a large walk takes seconds
            task = bar.add_task("classing", total=len(texts))
            sigs = []
            for x, (at, _, _) in zip(texts, frames):
                sigs.append(check.signature(x, at, store=args.store))
                bar.advance(task)
    except check.PTXError as e:
        raise SystemExit(f"not PTX the checker reads: {e}") from None
    classes = classes_of(zip(sigs, (frame for _, frame, _ in frames)))   # each within its grid or super-block frame
    rows = [{"signature": sigs[m[0]], "level": check.level(texts[m[0]], frames[m[0]][0], store=args.store),
             "members": [names[i] for i in m]} for m in classes]
    classed_s = time.process_time() - started
    t = Table("class", "signature", "checker level", "members",
              title=(_count(len(texts), noun) if what is None else f"{what}: {_count(len(texts), noun)}")
              + f" -> {_count(len(rows), 'class')}",
              caption=_timing(compiled_s, classed_s, len(texts)))
    for i, row in enumerate(rows):
        t.add_row(str(i), row["signature"][:16], row["level"], "\n".join(row["members"]))
    console.print(t)
    for name, why in failed:
        console.print(f"[red]did not compile[/red] {name}: {why}")
    loose = [a for a, ty in _kv(args.sig, str).items() if ty.startswith("*") and a not in args.aligned]
    if what is not None and loose:   # the classes are the compiled programs': say which launch they are for
        console.print(f"[dim]classed as compiled for {', '.join(loose)} not 16-byte aligned; Triton's JIT "
                      f"specialises aligned pointers (any fresh torch tensor), which may compile other programs: "
                      f"--aligned {' '.join(loose)} classes those[/dim]")
    if len(texts) == 2 and len(classes) == 1:   # two inputs: why they are one class, or (below) where they part
        console.print(check.equivalent(*texts).explanation)
    elif (args.explain or len(texts) == 2) and len(classes) > 1:   # each class against the first
        for i, m in enumerate(classes[1:], 1):
            why = rows[i]["vs_class_0"] = parting(texts, frames, classes[0][0], m[0])
            console.print(f"[bold]class {i} vs class 0[/bold] ({names[m[0]]} vs {names[classes[0][0]]}): {why}")
    if args.json:
        _write_classes(args.json, rows, failed, {"compile_wall": compiled_s, "classify_cpu": classed_s})
    return 1 if failed else 0


def _check_cache(args, console) -> int:
    """`bitorder check DIR`: every kernel in a Triton cache, its compiled variants (autotune configurations,
    num_warps, num_stages) classed together: a table for each kernel with more than one variant, then a summary."""
    import time

    from rich.progress import Progress
    from rich.table import Table

    from .check import tritoncache
    jobs = args.jobs or os.cpu_count() or 1
    started, started_wall = time.process_time(), time.perf_counter()
    with Progress(console=console, transient=True) as bar:
        task = bar.add_task("classing", total=None)
        got = tritoncache.classes(args.inputs[0], args.kernel, jobs, args.store, args.explain,
                                  lambda done, total: bar.update(task, completed=done, total=total), args.singles)
    out, unread, skipped, jobs = got.kernels, got.unread, got.skipped, got.jobs
    if not out and not unread:
        what = f"no compiled kernel named {args.kernel!r}" if args.kernel else "no compiled kernel with PTX"
        loose = [] if args.kernel else sorted(Path(args.inputs[0]).rglob("*.ptx"))
        hint = f"; it holds {_count(len(loose), 'PTX file')} without Triton's metadata: give them as files " \
               f"(bitorder check {loose[0].parent}/*.ptx)" if loose else ""
        raise SystemExit(f"{what} under {args.inputs[0]} (a Triton cache: $TRITON_CACHE_DIR, ~/.triton/cache)"
                         + (f"; {len(skipped)} folders skipped, e.g. {skipped[0][1]}" if skipped else "") + hint)
    classed_s = time.process_time() - started if jobs == 1 else time.perf_counter() - started_wall
    for g in out:
        if g["variants"] > 1:
            t = Table("class", "signature", "checker level", "members",
                      title=f"{g['kernel']}: {_count(g['variants'], 'variant')} -> {_count(len(g['classes']), 'class')}")
            for i, row in enumerate(g["classes"]):
                t.add_row(str(i), row["signature"][:16], row["level"], "\n".join(row["members"]))
            console.print(t)
            for i, row in enumerate(g["classes"][1:], 1):
                if "vs_class_0" in row:
                    console.print(f"[bold]class {i} vs class 0[/bold]: {row['vs_class_0']}")
    n = sum(g["variants"] for g in out)
    s = Table("kernel", "variants", "classes", "one class: same bytes whichever runs",
              title=f"{args.inputs[0]}: {_count(len(out), 'kernel')}, {_count(n, 'compiled variant')}",
              caption=_timing(None, classed_s, n, jobs))
    for g in out:
        s.add_row(g["kernel"], str(g["variants"]), str(len(g["classes"])),
                  "-" if g["variants"] == 1 else "yes" if len(g["classes"]) == 1 else "[red]no: may differ[/red]")
    console.print(s)
    gridded = sum(g["launch_grids"] for g in out)
    if gridded:   # what lets XBLOCK variants share a class: said, since it is read off Inductor's code
        console.print(f"[dim]{_count(gridded, 'kernel')} classed over the grids TorchInductor launches them on "
                      f"(cdiv(xnumel, XBLOCK), read off each kernel's module and TTGIR): variants of other XBLOCK "
                      f"meet where their super-blocks store the same[/dim]")
    for group, why in unread:
        console.print(f"[red]not read[/red] {group}: {why}")
    if skipped:
        console.print(f"[dim]{_count(len(skipped), 'folder')} skipped: {skipped[0][1]}"
                      + (" (and others; --json lists them)" if len(skipped) > 1 else "") + "[/dim]")
    if args.json:
        import json
        with open(args.json, "w") as f:
            json.dump({"kernels": out, "unread": [{"kernel": g, "error": w} for g, w in unread],
                       "skipped": [{"folder": d, "why": w} for d, w in skipped],
                       "seconds": {"classify_cpu": classed_s}}, f, indent=1)
    return 1 if unread else 0


def _count(n, noun) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "es" if noun.endswith("s") else "s")


def _timing(compiled_s, classed_s, n, processes=1) -> str:
    """The table's caption: Triton's compile time (wall) and the checker's (one core's CPU time, or the wall time
    of `processes` classing at once), and how many answers this process read back from the store (their time is
    a file's read, not a walk's)."""
    from .check.store import READ
    unit = "CPU-s" if processes == 1 else f"s with {processes} processes"
    rate = f", {n / classed_s:.0f} a {'CPU-' if processes == 1 else ''}second" if classed_s > 0 else ""
    read = f" ({READ[0]} of {n} read back from the store; --no-store walks them)" if READ[0] else ""
    classed = f"classed in {classed_s:.2f} {unit}{rate}{read}"
    return classed if compiled_s is None else f"compiled in {compiled_s:.1f} s, {classed}"


def _write_classes(path, rows, failed, seconds=None) -> None:
    """`bitorder check --json`: the classes (signature, level, members), each configuration that failed and,
    where anything was classed, the seconds it took (compile_wall: Triton's compile, None for PTX files;
    classify_cpu: the checker's CPU time)."""
    import json
    out = {"classes": rows, "failed": [{"config": n, "error": w} for n, w in failed]}
    if seconds is not None:
        out["seconds"] = seconds
    with open(path, "w") as f:
        json.dump(out, f, indent=1)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="bitorder", description=__doc__)
    sub = p.add_subparsers(dest="cmd", required=True)
    sub.add_parser("report", help="environment, targets and each component's status (live on a GPU)")
    sub.add_parser("probe", help="survey cuBLAS (GPU), verify or fit the arch profile (CPU); see bitorder probe -h",
                   add_help=False)
    k = sub.add_parser("check", help="bitwise classes of compiled kernels: two PTX files, or a kernel's configs")
    k.add_argument("inputs", nargs="+", help="PTX files, one FILE.py:FUNCTION or MODULE:FUNCTION, or a Triton "
                   "cache folder (~/.triton/cache, or TorchInductor's, whose kernels are classed over the grids "
                   "Inductor launches them on): each kernel's compiled variants classed together")
    k.add_argument("--kernel", metavar="NAME", help="with a cache folder: only the kernel of that name")
    k.add_argument("--singles", action="store_true",
                   help="with a cache folder: walk kernels compiled once too (their signatures; else only read)")
    k.add_argument("--target", default="sm90", help="an NVIDIA compile target (default sm90): the checker reads PTX")
    k.add_argument("--sig", nargs="*", metavar="ARG=TYPE", help="runtime argument types, e.g. x_ptr=*fp32 n=i32")
    k.add_argument("--const", nargs="*", metavar="ARG=VALUE", help="constexpr values every configuration shares")
    k.add_argument("--warps", nargs="*", type=int, help="num_warps values to try (default 4)")
    k.add_argument("--stages", nargs="*", type=int, help="num_stages values to try (default 3)")
    k.add_argument("--space", nargs="*", metavar="ARG=V1,V2", help="constexpr values to try, e.g. BLOCK=256,512; "
                   "an @triton.autotune kernel given none of --warps, --stages, --space: its own configurations")
    k.add_argument("--aligned", nargs="*", default=(), metavar="ARG",
                   help="arguments Triton would specialise as multiples of 16 (pointers, sizes): the checker "
                        "uses the assumption, as the compiled code does")
    k.add_argument("--grid", metavar="EXPR",
                   help="the launch grid, a Python expression of the constexprs, num_warps and --launch values, e.g. "
                        "'cdiv(n, BLOCK)': configurations whose grids differ in x alone are classed over "
                        "super-blocks (BLOCK sizes over the same elements can meet), others within their grid")
    k.add_argument("--launch", nargs="*", metavar="NAME=INT", help="runtime integer arguments --grid reads "
                   "(not assumed by the classes: use --const or --sig for that)")
    k.add_argument("--explain", action="store_true",
                   help="say where each class first differs from class 0 (in --json too, as vs_class_0)")
    k.add_argument("--jobs", type=int, help="processes compiling configurations (or, for a cache folder, classing "
                   "its variants) at once (default: one a core)")
    k.add_argument("--json", metavar="FILE", help="also write the classes (signature, level, members) as JSON")
    k.add_argument("--no-store", dest="store", action="store_false",
                   help="walk every program again: neither read nor keep answers in $BITORDER_CACHE_DIR/signatures "
                        "(kept there by default, under the checker's source digest, for the next run)")
    c = sub.add_parser("compile", help="compile a @triton.jit function for a target without a GPU")
    c.add_argument("kernel", help="FILE.py:FUNCTION")
    c.add_argument("--target", default="sm90")
    c.add_argument("--sig", nargs="*", metavar="ARG=TYPE", help="runtime argument types, e.g. x_ptr=*fp32 n=i32")
    c.add_argument("--const", nargs="*", metavar="ARG=VALUE", help="constexpr values, e.g. BLOCK=1024")
    c.add_argument("--aligned", nargs="*", default=(), metavar="ARG")
    c.add_argument("--num-warps", type=int, default=4)
    c.add_argument("--num-stages", type=int, default=3)
    c.add_argument("--emit", choices=("ttir", "ttgir", "llir", "asm"), default="asm")
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv and argv[0] == "probe":
        from .cublas.probe_cli import main as probe_main
        return probe_main(argv[1:])
    args = p.parse_args(argv)

    if args.cmd == "report":
        from .report import run
        return 1 if run() else 0
    if args.cmd == "check":
        return _check(args)
    if args.cmd == "compile":
        from .compiler import compile as compile_kernel
        fn = _load_jit(args.kernel)
        out = compile_kernel(fn, args.target, signature=_kv(args.sig, str), constexprs=_kv(args.const, _literal),
                             aligned=args.aligned, num_warps=args.num_warps, num_stages=args.num_stages)
        sys.stdout.write(getattr(out, args.emit))
        return 0
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
