"""Triton's cache as the checker's input: every kernel a machine compiled, grouped so that the variants of one
kernel (its autotune configurations, num_warps, num_stages) are classed together.

Triton keeps each compile in a folder of its own (`$TRITON_CACHE_DIR`, by default ~/.triton/cache), holding
NAME.ptx, NAME.ttgir and NAME.json (the metadata: name, num_warps, num_stages, target). A group is one kernel
as its launches specialise it: the same name, the same definition (file and line), the same target and the same
parameters (types and the ones assumed multiples of 16). The constexprs a configuration chose are not in the
metadata; they are in the code, which is what the checker reads.

A TorchInductor kernel says how it is launched: its module (the definition file, still in Inductor's cache)
declares a Grid1D launch, cdiv(xnumel, XBLOCK) programs, and fixes xnumel in the kernel's body; its TTGIR shows
the XBLOCK each variant multiplies program_id(0) by. Such variants carry their grid, so the caller can class
variants of other XBLOCK over super-blocks (check.prune.launch_frames): every one of them covers [0, xnumel).
Compiled for dynamic shapes, xnumel is a parameter instead (DynamicGrid): variants of other XBLOCK then meet over
super-blocks where each is shown to store nothing past the programs a launch runs (signature.stores_past_end)."""
from __future__ import annotations

import ast
import contextlib
import functools
import json
import math
import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path

from .prune import classes_of, launch_frames, parting, super_blocks
from .ptx import PTXError
from .signature import _entry, level, signature, stores_past_end

_FUNC = re.compile(r"tt\.func public @([\w.$]+)\((.*?)\) attributes", re.S)
_PARAM = re.compile(r"%([\w.$]+): (!tt\.ptr<[^>]*>|\w+)( \{[^}]*tt\.divisibility = 16[^}]*\})?")
_DEF = re.compile(r'^#loc\d* = loc\("([^"]+)":(\d+):\d+\)', re.M)
_RANGE = re.compile(r"tt\.make_range \{end = (\d+) : i32, start = 0 : i32\}")
# Inductor's `xoffset = tl.program_id(0) * XBLOCK` as the TTGIR names its values: program_id(0), perhaps widened
# to 64 bits, times the constant XBLOCK (no multiply where XBLOCK is 1)
_PID_X = re.compile(r"^ *%xoffset = tt\.get_program_id x ", re.M)
_XOFFSET = re.compile(r"^ *(%xoffset_\d+) = (.*)$", re.M)
_WIDEN = re.compile(r"arith\.extsi (%xoffset(?:_\d+)?) : i32 to i64 ")
_TIMES = re.compile(r"arith\.muli (%xoffset(?:_\d+)?), %c(\d+)_i(?:32|64)(?:_\d+)? ")
_OTHER_PID = re.compile(r"tt\.get_program_id [yz]|tt\.get_num_programs")


@dataclass(frozen=True)
class Cached:
    """One compiled kernel of the cache: `asm` ({"ptx", "ttgir"}, or the PTX alone where no TTGIR was kept) is what
    `check.signature` reads, `member` names the variant (its folder's hash, launch options and the extents of its
    tl.arange ranges, which show its block sizes), `group` the kernel it is a variant of."""
    group: str
    member: str
    asm: dict | str
    folder: Path
    grid: tuple | DynamicGrid | None = None   # (x, y, z) as Inductor launches it (inductor_grid), else None: not known


@dataclass(frozen=True)
class DynamicGrid:
    """The grid of a TorchInductor kernel compiled for dynamic shapes: cdiv(xnumel, xblock) programs along x, xnumel
    the launch's value of PTX parameter `param`."""
    param: int
    xblock: int

    def __str__(self) -> str:
        return f"cdiv(xnumel,{self.xblock})"


def _grid_text(grid) -> str:
    """How a member names its launch grid: its x extent, or cdiv(xnumel,XBLOCK) for a dynamic one."""
    return str(grid) if isinstance(grid, DynamicGrid) else str(grid[0])


def _params_of(ttgir: str, name: str) -> list | None:
    """[(name, type, divisibility text or "")] of the kernel's parameters in order (the PTX's, constexprs gone) as
    its TTGIR's function declares them, or None where the TTGIR does not define `name`."""
    m = _FUNC.search(ttgir)
    return None if m is None or m.group(1) != name else _PARAM.findall(m.group(2))


def _signature_of(ttgir: str, name: str) -> str:
    """The kernel's parameters as its code was specialised: `x_ptr *f32/16` (a pointer assumed 16-byte aligned)."""
    found = _params_of(ttgir, name)
    if found is None:
        return "?"
    params = []
    for p, ty, div in found:
        ty = "*" + ty[len("!tt.ptr<"):-1] if ty.startswith("!tt.ptr<") else ty
        params.append(f"{p} {ty}{'/16' if div else ''}")
    return ", ".join(params)


def _definition(ttgir: str) -> str:
    """FILE:LINE of the kernel's definition (the module's first location), or '?'."""
    m = _DEF.search(ttgir)
    return f"{m.group(1)}:{m.group(2)}" if m else "?"


def _inductor_xnumel(path: str, name: str) -> int | str | None:
    """xnumel of the TorchInductor kernel `name` defined in the module at `path`, where its decorator declares the
    Grid1D launch (inductor_meta grid_type) and its body fixes xnumel to a constant; "param" where xnumel is one of
    its parameters that its body does not set (dynamic shapes); None for anything else."""
    try:
        st = Path(path).stat()
    except OSError:
        return None
    return _xnumel_of(path, name, st.st_mtime_ns, st.st_size)


@functools.lru_cache(maxsize=1024)
def _xnumel_of(path: str, name: str, mtime_ns: int, size: int) -> int | str | None:
    """_inductor_xnumel of the module as it is now (its time and size in the key: a file moved or rewritten is read
    again)."""
    try:
        tree = ast.parse(Path(path).read_text())
    except (OSError, SyntaxError, ValueError, UnicodeDecodeError):
        return None
    fn = next((f for f in tree.body if isinstance(f, ast.FunctionDef) and f.name == name), None)
    if fn is None or not any(_grid_1d(d) for d in fn.decorator_list):
        return None
    for st in fn.body:
        if isinstance(st, ast.Assign) and len(st.targets) == 1 and getattr(st.targets[0], "id", None) == "xnumel":
            v = st.value
            return v.value if isinstance(v, ast.Constant) and type(v.value) is int and v.value > 0 else None
    if any(a.arg == "xnumel" for a in fn.args.args) and not any(
            isinstance(n, ast.Name) and n.id == "xnumel" and isinstance(n.ctx, ast.Store) for n in ast.walk(fn)):
        return "param"   # dynamic shapes: xnumel is the launch's argument
    return None


def _grid_1d(decorator) -> bool:
    """Whether a decorator is a call given inductor_meta={..., 'grid_type': 'Grid1D', ...}."""
    for kw in getattr(decorator, "keywords", ()):
        if kw.arg == "inductor_meta" and isinstance(kw.value, ast.Dict):
            return any(isinstance(k, ast.Constant) and k.value == "grid_type" and isinstance(v, ast.Constant)
                       and v.value == "Grid1D" for k, v in zip(kw.value.keys, kw.value.values))
    return False


def inductor_grid(ptx: str, ttgir: str, name: str, root=None) -> tuple | DynamicGrid | None:
    """The (x, 1, 1) grid TorchInductor launches this compiled variant over: cdiv(xnumel, XBLOCK), with xnumel from
    the kernel's module and XBLOCK from the variant's TTGIR. The module is the file the TTGIR names, or where that
    path is not on this machine (a cache copied from another), the one file of its name under `root`: Inductor names
    a module by its source's hash. None where any of it is not read exactly so: a kernel that is not Inductor's, a
    module not found, a launch other than Grid1D, a program reading another grid axis or the grid's size (its code
    would depend on more than the elements a program covers). Where xnumel is a parameter (dynamic shapes), a
    DynamicGrid naming it (None where Triton specialised it away, as it does a 1)."""
    m = _DEF.search(ttgir)
    if m is None or not _PID_X.search(ttgir) or _OTHER_PID.search(ttgir) or "%nctaid" in ptx:
        return None
    path = m.group(1)
    if root is not None and not Path(path).is_file():
        path = _module_under(str(root), Path(path).name) or path
    xnumel = _inductor_xnumel(path, name)
    if xnumel is None:
        return None
    xblock = _xblock(ttgir)
    if xblock is None:
        return None
    if xnumel == "param":
        names = [p for p, _, _ in _params_of(ttgir, name) or ()]
        return DynamicGrid(names.index("xnumel"), xblock) if "xnumel" in names else None
    return (-(-xnumel // xblock), 1, 1)


@functools.lru_cache(maxsize=1024)
def _module_under(root: str, name: str) -> str | None:
    """The one file named `name` under `root`, else None (none, or several: not known which). Kept per process (one
    search of the folder per module, not per variant); a file gone since is then not found by _inductor_xnumel."""
    found = [p for p in Path(root).rglob(name) if p.is_file()] if name.endswith(".py") else []
    return str(found[0]) if len(found) == 1 else None


def _xblock(ttgir: str) -> int | None:
    """The XBLOCK Inductor's `xoffset = tl.program_id(0) * XBLOCK` multiplies by, from the values the TTGIR names
    xoffset: program_id(0), perhaps widened, times one constant (1 where nothing multiplies it); None for any other
    xoffset value, which this does not read."""
    derived, xblock = {"%xoffset"}, None
    for name, op in _XOFFSET.findall(ttgir):
        widen, times = _WIDEN.match(op), _TIMES.match(op)
        if widen and widen.group(1) in derived:
            derived.add(name)
        elif times and times.group(1) in derived and xblock is None:
            xblock = int(times.group(2))
        else:
            return None
    return 1 if xblock is None else xblock


def read(root, kernel: str | None = None) -> tuple[dict[str, list[Cached]], list[tuple[str, str]]]:
    """Every compiled kernel under `root` (a Triton cache, searched recursively), grouped by kernel, in sorted
    folder order: ({group: [Cached, ...]}, [(folder, why skipped), ...]). `kernel` keeps only that kernel name.
    A folder with no PTX (an AMD compile) or unreadable metadata is skipped with the reason, never guessed at."""
    root = Path(root)
    if not root.is_dir():
        raise FileNotFoundError(f"{root} is not a folder")
    groups: dict[str, list[Cached]] = {}
    skipped: list[tuple[str, str]] = []
    for meta_path in sorted(root.rglob("*.json")):
        if meta_path.name.startswith("__grp__"):
            continue
        folder = meta_path.parent
        try:
            meta = json.loads(meta_path.read_text())
        except (OSError, ValueError) as e:
            skipped.append((str(folder), f"unreadable metadata {meta_path.name}: {e}"))
            continue
        if not isinstance(meta, dict) or "name" not in meta or "num_warps" not in meta:
            continue   # not a compile's metadata (some other JSON under the folder)
        name = meta["name"]
        if kernel is not None and name != kernel:
            continue
        ptx, ttgir = folder / f"{name}.ptx", folder / f"{name}.ttgir"
        if not ptx.is_file():
            backend = (meta.get("target") or {}).get("backend", "?")
            skipped.append((str(folder), f"{name}: no PTX ({backend} compile); the checker reads PTX"))
            continue
        gir = ttgir.read_text() if ttgir.is_file() else ""
        arch = (meta.get("target") or {}).get("arch", "?")
        group = f"{name}  {_definition(gir)}  sm{arch}  ({_signature_of(gir, name)})"
        options = f"warps={meta['num_warps']} stages={meta.get('num_stages', '?')}"
        for opt in ("num_ctas", "maxnreg"):
            if meta.get(opt) not in (None, 1):
                options += f" {opt.removeprefix('num_')}={meta[opt]}"
        ranges = sorted({int(n) for n in _RANGE.findall(gir)})
        if ranges:   # the block shapes (tl.arange extents): the constexprs the metadata does not keep
            options += f" ranges={','.join(map(str, ranges))}"
        asm = {"ptx": ptx.read_text(), "ttgir": gir} if gir else ptx.read_text()
        grid = inductor_grid(asm["ptx"], gir, name, root) if gir else None
        if grid is not None:
            options += f" grid={_grid_text(grid)}"
        groups.setdefault(group, []).append(Cached(group, f"{folder.name[:10]} {options}", asm, folder, grid))
    return groups, skipped


@dataclass
class CacheClasses:
    """`classes`' answer. kernels: per kernel with a readable PTX, {"kernel": its group, "variants": n, "classes":
    [{"signature", "level", "members", "folders", and with explain "vs_class_0" for classes after the first}],
    "launch_grids": whether its variants were classed over Inductor's grids}; unread: [(group, why)] for kernels
    whose PTX the checker cannot read (never classed); skipped: read's [(folder, why)]; jobs: processes used."""
    kernels: list
    unread: list
    skipped: list
    jobs: int


ONE_VARIANT = "one variant: nothing to compare"   # the level of a kernel compiled once (its PTX read, not walked)
# what a dynamic-grid variant's level adds where it may store past the programs a launch runs (dynamic_frames)
PAST_END = "; may store past its launch's programs (xnumel a parameter): compared within its own grid"


def classes(root, kernel: str | None = None, jobs: int | None = 1, store: bool = True, explain: bool = False,
            progress=None, singles: bool = False) -> CacheClasses:
    """The bitwise classes of each kernel's compiled variants in a Triton (or TorchInductor) cache folder: variants in
    one class return identical bytes whichever of them runs, on every input (each launched as compiled; a
    TorchInductor kernel's variants each over the grid Inductor launches it on, cdiv(xnumel, XBLOCK)). Variants in
    other classes are not proven to. kernel: only that kernel name; jobs: forked processes classing (None: one a
    core); store: check.signature's; explain: where each class first parts from class 0; progress: called as
    progress(done, total) after each variant. A kernel compiled once has nothing to compare: its PTX is read (an
    unreadable one is reported) but not walked, and its class's signature is None, unless singles=True."""
    groups, skipped = read(root, kernel)
    order = sorted(groups)
    at_of = {g: frames(groups[g]) for g in order}
    flat = [(v.asm, at, store, singles or len(groups[g]) > 1)
            for g in order for v, (at, _, _) in zip(groups[g], at_of[g])]
    jobs = max(1, min(jobs or os.cpu_count() or 1, len(flat) or 1))
    answers: list = []
    with forked_map(jobs) as run:
        for answer in run(_class_one, flat):   # in the variants' order
            answers.append(answer)
            if progress is not None:
                progress(len(answers), len(flat))
    kernels, unread, at = [], [], 0
    for group in order:
        variants = groups[group]
        mine, at = answers[at:at + len(variants)], at + len(variants)
        why = next((w for _, _, w, _ in mine if w is not None), None)
        if why is not None:   # one unreadable kernel does not stop the others
            unread.append((group, why))
            continue
        fr = [_settled(f, past) for f, (_, _, _, past) in zip(at_of[group], mine)]
        members = classes_of((sig, frame) for (sig, _, _, _), (_, frame, _) in zip(mine, fr))
        rows = [{"signature": mine[m[0]][0], "level": mine[m[0]][1], "members": [variants[i].member for i in m],
                 "folders": [str(variants[i].folder) for i in m]} for m in members]
        if explain:
            asms = [v.asm for v in variants]
            for i, m in enumerate(members[1:], 1):
                rows[i]["vs_class_0"] = parting(asms, fr, members[0][0], m[0])
        kernels.append({"kernel": group, "variants": len(variants), "classes": rows,
                        "launch_grids": fr[0][2] is not None})
    return CacheClasses(kernels, unread, skipped, jobs)


def frames(variants) -> list:
    """Per cached variant, (check.signature's args, the frame its class holds in, its grid): over super-blocks
    (prune.launch_frames) where every variant of the kernel carries the grid Inductor launches it on and those grids
    differ; else all in one frame, the variants compared as launched alike. Dynamic grids (xnumel a parameter):
    dynamic_frames."""
    grids = [v.grid for v in variants]
    if None in grids or len(set(grids)) < 2:
        return [(None, None, None)] * len(variants)
    if any(isinstance(g, DynamicGrid) for g in grids):
        return dynamic_frames(grids)
    return [(at, frame, g) for (at, frame), g in zip(launch_frames(grids), grids)]


def dynamic_frames(grids) -> list:
    """frames for variants launched over cdiv(xnumel, XBLOCK) programs, xnumel a runtime parameter (DynamicGrid):
    variants are classed over super-blocks of L elements, L / XBLOCK programs each (xnumel left a symbol), L a common
    multiple of their XBLOCKs that super_blocks chooses (as it chooses C for the programs covering the least common
    multiple M of them all: L = M / C, so that at most SBLOCK_MAX programs make a super-block), in one frame per L,
    provided each stores nothing past the programs a launch runs (signature.stores_past_end, asked by the worker that
    classes it: the args' "past_end"; _settled puts a variant that may back in its own grid's frame). A launch runs
    the super-blocks below cdiv(xnumel, L) less the programs past cdiv(xnumel, XBLOCK), which store nothing: so two
    variants of one class store the same for every xnumel. Variants of other parameters, variants mixed with static
    grids, and an XBLOCK that no other meets within SBLOCK_MAX programs: each grid in its own frame (plain
    signatures)."""
    if not all(isinstance(g, DynamicGrid) for g in grids) or len({g.param for g in grids}) != 1:
        return [(None, ("grid", str(g)), g) for g in grids]
    most = math.lcm(*{g.xblock for g in grids})
    blocks = super_blocks([(most // g.xblock, 1, 1) for g in grids])   # programs covering `most` elements
    out = []
    for g in grids:
        r_c = blocks.get((most // g.xblock, 1, 1))
        if r_c is None:
            out.append((None, ("grid", str(g)), g))
        else:
            out.append(({"sblock": r_c[0], "past_end": (g.param, g.xblock)},
                        ("dynamic super-blocks", most // r_c[1], g.param), g))
    return out


def _settled(frame, past) -> tuple:
    """A variant's (args, frame, grid) once its worker has answered: where it may store past the programs a launch
    runs (past True), its own grid's frame and plain signature; else the args without "past_end"."""
    at, fr, grid = frame
    if past:
        return None, ("grid", str(grid)), grid
    return _plain_args(at), fr, grid


def _plain_args(at):
    """check.signature's args of a frame: at without dynamic_frames' "past_end" (None stays None)."""
    return {k: v for k, v in at.items() if k != "past_end"} if at else at


def _class_one(item):
    """(signature, level, None, past) of one variant ((asm, check.signature's args, store, whether to walk it)), or
    (None, None, why, False) where its PTX is not read: a worker's task. Not walked: (None, ONE_VARIANT, None, False)
    once it parses. Args holding "past_end" (dynamic_frames): past is stores_past_end's answer, and where it is True
    the variant is classed without super-blocks (its plain signature)."""
    asm, at, store, walk = item
    try:
        if not walk:
            _entry(asm)   # read as a walk would read it: one .entry, or PTXError
            return None, ONE_VARIANT, None, False
        past = False
        if at is not None and "past_end" in at:
            past = stores_past_end(asm, *at["past_end"])
            at = None if past else _plain_args(at)
        said = level(asm, at, store=store) + (PAST_END if past else "")
        return signature(asm, at, store=store), said, None, past
    except PTXError as e:
        return None, None, str(e), False


@contextlib.contextmanager
def forked_map(jobs: int):
    """A map (ordered, lazy) over `jobs` forked processes, which inherit what this one loaded (a walk, like Triton's
    compile, is one core's work); the builtin map for one job, or where this process initialised CUDA, which a fork
    must not copy."""
    torch = sys.modules.get("torch")
    if jobs == 1 or (torch is not None and torch.cuda.is_initialized()):
        yield map
        return
    import multiprocessing
    with multiprocessing.get_context("fork").Pool(jobs) as pool:
        yield lambda f, items: pool.imap(f, items)
