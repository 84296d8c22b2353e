"""The layout optimization for pinned reductions (paper Algorithm 1, its first rule).

A pinned sum pairs logical neighbours first. Triton's coalesced load layout puts the reduced
axis' low bits in lanes and warps whenever that axis is not the contiguous one (a column sum),
so the pinned tree's first levels cross lanes and warps: 353 shared-memory stores per thread
for a 256x64 column sum, against 7 for the free sum. The pass gives such a load a layout whose
low bits of the reduced axis are in registers, then lanes, then warps: the axis' repetitions
move into sizePerThread (threads and warps stay where coalescing put them, so the load stays
vectorised), and Triton's own RemoveLayoutConversions carries the layout through the chain.
Same column sum: 12 shared stores, and bitorder.check finds the same dependence tree at every
output (the pinned tree does not depend on the layout). A row reduced along its contiguous axis
(softmax, the norms) keeps Triton's layout: there the repetitions are what keeps one load
instruction's lanes on adjacent 16-byte runs, and moving them into registers made those kernels
1.2x-2.0x slower on the H200 (keeps_coalescing; benchmarks/results/2026-11-30b-pinned).

It runs through Triton's compile-stage hook: the ttgir stage runs the first two passes of
make_ttgir (convert to TTGIR, coalesce), rewrites the loads' layouts in the TTGIR text, parses
it back and runs the rest of make_ttgir. It only rewrites a module whose every reduction is a
pinned step (an axis of extent 2), so no free-order sum's bits can move, and that holds no
tt.dot (a GEMM's operand loads stay as tuned); otherwise the kernel compiles as stock Triton
would. NVIDIA and AMD alike (both backends' make_ttgir start with these two passes; AMD only
compiled here, never run). On the pinned suite: 18 of 72 sm90 configurations rewritten (col_sum,
mid_sum, ln_bwd_dw), shuffles equal to the free sum's and all 18 proven equivalent by the checker
(benchmarks/results/2026-11-30b-pinned/cpu-layouts.md). Enable it with BITORDER_PINNED_LAYOUTS=1
(read at import) or enable(); compiled kernels go to their own Triton cache directory, since the
hook is not in Triton's cache key.

After make_ttgir it also converts a pinned chain's MMA accumulator once (bitorder.compiler.convert:
the chain's levels then run in registers instead of shuffling every accumulator register).
"""
from __future__ import annotations

import contextlib
import os
import re
import tempfile
import threading

from . import convert, rowperm

_PATCH_LOCK = threading.Lock()
_REAL: dict = {}   # Triton's own convert-to-TTGIR and coalesce pass builders, saved before any stand-in
_ALIAS = re.compile(r"^(#blocked\d*) = #ttg\.blocked<\{(.*)\}>$", re.M)
_LOAD = re.compile(r"(%[\w.]+) = tt\.load [^\n]*: tensor<([0-9x]+)x!tt\.ptr<\w+>, (#blocked\d*)>")
_REDUCE = re.compile(r'"tt\.reduce"\([^)]*\) <\{axis = (\d+) : i32\}>[\s\S]*?\}\) : \(tensor<([0-9x]+)x')


def _fields(body: str) -> dict:
    return {k: [int(x) for x in v.split(",")] for k, v in re.findall(r"(\w+) = \[([0-9, ]+)\]", body)}


def only_pinned_reductions(text: str) -> bool:
    """Every tt.reduce of the module reduces an axis of extent 2 (a pinned tree's step), and the
    module has no scan: then no layout can change the bits of any reduction in it."""
    reduces = _REDUCE.findall(text)
    return bool(reduces) and "tt.scan" not in text and all(
        int(shape.split("x")[int(axis)]) == 2 for axis, shape in reduces)


def pinned_axes(text: str) -> dict:
    """{input shape: the axis} of the pinned chains' first steps: reshapes that split one axis of
    extent S into (S/2, 2). A shape reduced along two different axes maps to None."""
    axes = {}
    for src, dst in re.findall(r"tt\.reshape [^\n]*: tensor<([0-9x]+)x\w+, [^\n]*-> tensor<([0-9x]+)x", text):
        dims, new = [int(d) for d in src.split("x")], [int(d) for d in dst.split("x")]
        if len(new) != len(dims) + 1:
            continue
        axis = next((i for i in range(len(dims)) if new[i] != dims[i]), None)
        if axis is None or new[axis + 1] != 2 or 2 * new[axis] != dims[axis]:
            continue
        key = tuple(dims)
        axes[key] = axis if axes.get(key, axis) == axis else None
    return axes


def keeps_coalescing(fields: dict, axis: int) -> bool:
    """Whether moving `axis`' repetitions into sizePerThread keeps every load and store instruction
    of a warp on the same contiguous runs of memory. Not along the contiguous axis (order[0]) when
    lanes or warps lie on it: each lane would then own a run of sizePerThread elements, and one
    instruction's lanes would stride across that many bytes (sizePerThread 32 for a 1024-wide fp32
    row puts the 32 lanes of each load 128 bytes apart: 32 cache lines per instruction instead of
    4). The H200 timed exactly that 2.0x slower for softmax at one warp (2026-11-30b)."""
    tpw, wpc, order = fields["threadsPerWarp"], fields["warpsPerCTA"], fields["order"]
    return axis != order[0] or tpw[axis] * wpc[axis] == 1


def rewrite(text: str) -> tuple[str, list[str]]:
    """(TTGIR text with loads re-laid out for the pinned chains, what was changed).

    A load qualifies when its shape is that of a pinned chain's input (the chain may start from
    the load or from elementwise work on it: the layout reaches it either way) and its layout
    alias is used only by loads, stores and the conversions around them. The reduced axis'
    repetitions move into sizePerThread, unless that would break the coalescing of the loads
    (keeps_coalescing: a row reduced along its contiguous axis keeps Triton's layout)."""
    if not only_pinned_reductions(text) or "tt.dot" in text:    # (a GEMM's operand loads stay as tuned)
        return text, []
    aliases, axes = dict(_ALIAS.findall(text)), pinned_axes(text)
    changes, out, done = [], text, set()
    for name, shape, alias in _LOAD.findall(text):
        dims = tuple(int(d) for d in shape.split("x"))
        axis = axes.get(dims)
        if axis is None or alias in done:
            continue
        users = [ln for ln in text.splitlines() if f"{alias}>" in ln and not ln.startswith(alias)]
        if not all(any(op in ln for op in (" tt.load ", " tt.store ", "ttg.convert_layout")) for ln in users):
            continue      # the layout is shared with other work: leave it (stores move no bits)
        f = _fields(aliases[alias])
        spt, tpw, wpc = f["sizePerThread"], f["threadsPerWarp"], f["warpsPerCTA"]
        rep = dims[axis] // (spt[axis] * tpw[axis] * wpc[axis])
        if rep <= 1 or not keeps_coalescing(f, axis):
            continue
        spt2 = list(spt)
        spt2[axis] *= rep
        old_body = aliases[alias]
        new_body = old_body.replace(f"sizePerThread = [{', '.join(map(str, spt))}]",
                                    f"sizePerThread = [{', '.join(map(str, spt2))}]")
        out = out.replace(f"{alias} = #ttg.blocked<{{{old_body}}}>", f"{alias} = #ttg.blocked<{{{new_body}}}>")
        done.add(alias)
        changes.append(f"{name}: sizePerThread {spt} -> {spt2} (axis {axis})")
    return out, changes


def _hook(backend, stages, options, language, capability):
    if "ttgir" not in stages or "GLUON" in str(language).upper():
        return      # Gluon kernels: their own stage
    from triton._C.libtriton import ir, passes
    with _PATCH_LOCK:
        _REAL.setdefault("convert", passes.ttir.add_convert_to_ttgpuir)
        _REAL.setdefault("coalesce", passes.ttgpuir.add_coalesce)
    amd = capability is None     # the AMD backend passes no capability
    target, warp = (f"hip:{options.arch}", options.warp_size) if amd else (f"cuda:{capability}", 32)

    def ttgir(src, metadata):
        if ROWPERM and not amd and (capability < 90 or options.num_warps < 4):   # mma.sync accumulators
            src = _reparsed(src, *rowperm.rewrite(str(src), options.num_warps))
        pm = ir.pass_manager(src.context)
        _REAL["convert"](pm, target, options.num_warps, warp, options.num_ctas)   # (never a stand-in)
        _REAL["coalesce"](pm)
        pm.run(src, "bitorder_pinned_layouts")
        new, changes = rewrite(str(src))
        mod = _reparsed(src, new, changes)
        # the rest of make_ttgir: its first two passes have run (the lock: threads compiling at
        # once must not see each other's stand-ins)
        with _PATCH_LOCK:
            saved = passes.ttir.add_convert_to_ttgpuir, passes.ttgpuir.add_coalesce
            passes.ttir.add_convert_to_ttgpuir = lambda *a, **k: None
            passes.ttgpuir.add_coalesce = lambda *a, **k: None
            try:
                mod = backend.make_ttgir(mod, metadata, options) if amd else \
                    backend.make_ttgir(mod, metadata, options, capability)
            finally:
                passes.ttir.add_convert_to_ttgpuir, passes.ttgpuir.add_coalesce = saved
        # after the last RemoveLayoutConversions: pinned chains over an MMA accumulator
        text = str(mod)
        if CONVERT_SHUFFLE:     # (if its text does not parse: the stock conversion below)
            new, changes = convert.rewrite(text, rows=CONVERT_ROWS, keep_warps=CONVERT_KEEP_WARPS, shuffle=True)
            got = _reparsed(mod, new, changes)
            if got is not mod:
                return got
        return _reparsed(mod, *convert.rewrite(text, rows=CONVERT_ROWS, keep_warps=CONVERT_KEEP_WARPS))
    stages["ttgir"] = ttgir


def _reparsed(mod, text: str, changes: list):
    """`text` parsed into a module in `mod`'s context, or `mod` when there is no change or the
    text does not parse (the kernel then compiles as Triton left it: same bits, stock speed)."""
    if not changes:
        return mod
    from triton._C.libtriton import ir
    with tempfile.NamedTemporaryFile("w", suffix=".ttgir", delete=False) as f:
        f.write(text)
    try:
        new = ir.parse_mlir_module(f.name, mod.context)
    except Exception:      # (Triton raises RuntimeError; a verifier message is printed to stderr)
        return mod
    finally:
        os.unlink(f.name)
    new.context = mod.context      # (Triton sets this on the modules it makes; make_ttgir reads it)
    return new


def _source_hash() -> str:
    import hashlib
    h = hashlib.sha256()
    for path in (__file__, convert.__file__, rowperm.__file__):
        with open(path, "rb") as f:
            h.update(f.read())
    h.update(f"rows={CONVERT_ROWS} keep_warps={CONVERT_KEEP_WARPS} shuffle={CONVERT_SHUFFLE} rowperm={ROWPERM}".encode())
    return h.hexdigest()[:12]


# Rows reduced along their contiguous axis get the same conversion too (convert.rewrite's rows=)
# where their axis runs out of order. On by default since 2026-12-02c: with CONVERT_SHUFFLE, the
# twelve-kernel suite on the H200 stayed invariant and equal to the CPU reference, median pinned/free
# 1.011, cross_entropy 1.114 -> 1.057, gemm_colsum 1.295 -> 1.107 (benchmarks/results/2026-12-02c-gpu).
# BITORDER_PINNED_CONVERT_ROWS=0 turns it off.
CONVERT_ROWS = os.environ.get("BITORDER_PINNED_CONVERT_ROWS", "1") not in ("", "0")
# An accumulator's chain converted to a layout that keeps the mma layout's warps (the conversion
# stays inside each warp; one tree level may cross warps): an experiment, off by default.
CONVERT_KEEP_WARPS = os.environ.get("BITORDER_PINNED_CONVERT_KEEP_WARPS", "") not in ("", "0")
# An accumulator's chain converted level by level instead of once: before each level whose pair
# bit sits in a lane, a conversion swapping that lane bit with a kept axis' register bit, which
# Triton lowers with warp shuffles (convert.shuffle_plan). On by default since 2026-12-02c (above);
# BITORDER_PINNED_CONVERT_SHUFFLE=0 turns it off.
CONVERT_SHUFFLE = os.environ.get("BITORDER_PINNED_CONVERT_SHUFFLE", "1") not in ("", "0")
# A pinned column sum of an mma.sync accumulator with the dot's A rows permuted and the accumulator's rows
# relabelled back, so that the tree's low row bits are registers (rowperm.py). On by default since
# 2026-12-02d: on the H200 gemm_colsum's best pinned over best free went 1.107 -> 1.024, every pinned
# output one pattern and = the CPU reference (benchmarks/results/2026-12-02d-gpu). =0 turns it off.
ROWPERM = os.environ.get("BITORDER_PINNED_ROWPERM", "1") not in ("", "0")


# Neither Triton's cache key nor bitorder's sees what the hook does: both key on these files' text
# and the conversion switches (conversions() rekeys when it flips them).
def _rekey() -> None:
    global _SOURCE
    _SOURCE = _source_hash()
    _hook.bitorder_identity = f"bitorder.compiler.layouts:{_SOURCE}"


_rekey()


def enable(on: bool = True) -> None:
    """Turn the pass on (or off) for kernels compiled from now on in this process. Kernels go to
    a Triton cache directory of their own while it is on (the hook is not in Triton's key), named by
    language.pinned.apply_cache_dir, and JIT functions' in-memory kernels are dropped when the hook
    changes."""
    import triton
    from triton import knobs

    from ..language import pinned

    if triton.__version__ != "3.6.0":
        raise RuntimeError(f"bitorder's layout pass is written against Triton 3.6.0's make_ttgir; found "
                           f"{triton.__version__}")
    if on:
        knobs.runtime.add_stages_inspection_hook = _hook
    elif knobs.runtime.add_stages_inspection_hook is _hook:
        knobs.runtime.add_stages_inspection_hook = None
    pinned.apply_cache_dir()
    global _APPLIED
    state = _hook.bitorder_identity if knobs.runtime.add_stages_inspection_hook is _hook else None
    if state != _APPLIED:
        pinned.drop_kernel_caches()
        _APPLIED = state


_APPLIED = None   # the hook identity the last enable() left installed, or None (in-memory kernels match it)


@contextlib.contextmanager
def applied(on: bool = True):
    """The pass on (or off) for the compiles inside the block; the state before comes back after."""
    before = enabled()
    enable(on)
    try:
        yield
    finally:
        enable(before)


@contextlib.contextmanager
def conversions(rows: bool | None = None, shuffle: bool | None = None, rowperm: bool | None = None):
    """The pass's switches (CONVERT_ROWS, CONVERT_SHUFFLE, ROWPERM; None: as they are) for the compiles
    inside the block, with both caches keyed on them; the switches and keys before come back after.
    The bits of a pinned sum are the same in every mode (the tree is fixed); only where its levels run
    changes."""
    global CONVERT_ROWS, CONVERT_SHUFFLE, ROWPERM
    before = CONVERT_ROWS, CONVERT_SHUFFLE, ROWPERM
    CONVERT_ROWS = before[0] if rows is None else bool(rows)
    CONVERT_SHUFFLE = before[1] if shuffle is None else bool(shuffle)
    ROWPERM = before[2] if rowperm is None else bool(rowperm)
    _rekey()
    if enabled():
        enable(True)     # (Triton's cache directory is named by the key)
    try:
        yield
    finally:
        CONVERT_ROWS, CONVERT_SHUFFLE, ROWPERM = before
        _rekey()
        if enabled():
            enable(True)


def enabled() -> bool:
    from triton import knobs
    return knobs.runtime.add_stages_inspection_hook is _hook
