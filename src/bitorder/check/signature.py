"""Signatures, equivalence and partitions of compiled kernels.

Two levels, both sound (a merge means the same bits on every input; a split only costs
tuning time):
  v1 (dataflow.py): the dependence tree stored at every output address, for loop-free
     kernels and loops it folds (loops.py); it merges different code that computes the same
     trees (a pinned reduction over num_warps).
  v0 (here): the program text up to register, label and parameter names, for everything
     v1 declines (loops it cannot fold, instructions it does not model): two such entries
     compile to the same machine code.
A v1 signature never equals a v0 one.

With FAMILIES (on by default; BITORDER_FAMILIES=0 turns it off: docs/check-families.md), a configuration with no
bound arguments is first walked over one symbolic thread (families/): its "v2" signature names the trees stored at
every output element. Where that walk declines, v1 and v0 class it as above. A v2 signature never equals a v1 or v0
one, so mixing the levels only splits classes. Over the corpus every class it gives lies inside one class the GPU
gates checked (benchmarks/results/2026-12-07c-checker-cpu): its own GPU gate has not run.
"""
from __future__ import annotations

import gc
import hashlib
import os
import re
from dataclasses import dataclass

from . import ahead, dataflow, loops, magic, memory, store as disk, storefold, trips
from .ptx import Entry, Label, PTXError, parse

# the family walk first (v2), where no argument is bound; the concrete walk (v1) where it declines
FAMILIES: bool = os.environ.get("BITORDER_FAMILIES", "1") != "0"

_TOKEN = re.compile(r"%[A-Za-z_$][\w$]*|\$?L__\w+|\b\w+_param_\d+\b")


@dataclass(frozen=True)
class Canonical:
    name: str
    lines: tuple      # canonical instruction texts
    source: tuple     # the original texts, for explanations

    @property
    def signature(self) -> str:
        return hashlib.sha256("\n".join(self.lines).encode()).hexdigest()[:32]


_TOKEN_SPLIT = re.compile(f"({_TOKEN.pattern})")
# the same without the parameter-name alternative, for texts without "_param_" (where it cannot
# match): that alternative tries \w+ at every word boundary, most of the cost of the split
_TOKEN_SPLIT_NO_PARAM = re.compile(r"(%[A-Za-z_$][\w$]*|\$?L__\w+)")
_SPECIAL = re.compile(r"^%(tid|ntid|ctaid|nctaid|laneid|warpid|clock|globaltimer|smid|nsmid)")


def canonicalize(entry: Entry) -> Canonical:
    names, counts = {}, {"L": 0, "P": 0, "v": 0}

    def rename(t):
        if _SPECIAL.match(t):
            return t
        kind = "L" if "L__" in t else ("P" if "_param_" in t else "v")
        name = names[t] = f"{kind}{counts[kind]}"
        counts[kind] += 1
        return name

    lines, source = [f".reqntid {entry.reqntid}", f".params {len(entry.params)}"], ["", ""]
    split, split_no_param = _TOKEN_SPLIT.split, _TOKEN_SPLIT_NO_PARAM.split
    for item in entry.body:
        text = f"{item.name}:" if isinstance(item, Label) else item.text()
        # the text split around its tokens (odd places), each token renamed in order of appearance
        parts = split(text) if "_param_" in text else split_no_param(text)
        if len(parts) > 1:
            parts[1::2] = [names[t] if t in names else rename(t) for t in parts[1::2]]
            lines.append("".join(parts))
        else:
            lines.append(text)
        source.append(text)
    return Canonical(entry.name, tuple(lines), tuple(source))


def _entry(ptx) -> Entry:
    if isinstance(ptx, Entry):
        return ptx
    text = getattr(ptx, "asm", ptx)  # a bitorder.Compiled works too
    if isinstance(text, dict):       # a Triton CompiledKernel's asm
        text = text["ptx"]
    entries = parse(text)
    if len(entries) != 1:
        raise PTXError(f"expected one .entry, found {len(entries)}")
    return entries[0]


def divisible_params(ptx) -> frozenset:
    """Indices of the kernel parameters its code assumes are multiples of 16 (Triton's
    specialisation: `tt.divisibility = 16` on the function's arguments), read from the TTGIR
    of a bitorder.Compiled, a Triton CompiledKernel or its asm dict ({"ptx": ..., "ttgir": ...}). PTX text alone
    says nothing: empty."""
    ttgir = getattr(ptx, "ttgir", None)
    asm = getattr(ptx, "asm", ptx)
    if ttgir is None and isinstance(asm, dict):
        ttgir = asm.get("ttgir")
    if not ttgir:
        return frozenset()
    m = re.search(r"tt\.func (?:public )?@[\w$]+\(", ttgir)
    if not m:
        return frozenset()
    args, depth, cur = [], 0, []
    for ch in ttgir[m.end():]:
        if ch in "(<{[":
            depth += 1
        elif ch in ")>}]":
            if depth == 0:
                break
            depth -= 1
        if ch == "," and depth == 0:
            args.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    args.append("".join(cur))
    return frozenset(i for i, a in enumerate(args) if "tt.divisibility = 16" in a)


_LIMITS = ("steps", "nodes")     # what a walk may spend: in the memo's key, not in the class


def _bind(entry: Entry, args, divisible=frozenset()) -> tuple:
    """The sorted ((parameter index, value), ...) of `args` ({index: int}, a launch's integer
    arguments by PTX parameter index), then the named facts args gives: the walk's limits
    ("steps", n), ("nodes", n), the launch grid's x and z extents ("grid_x", n), ("grid_z", n);
    a ValueError for an index the entry has not, a value that is not an int, or one that breaks a
    multiple-of-16 assumption the code was compiled under."""
    args = dict(args or {})
    grid_z = args.pop("grid_z", None)
    grid_x = args.pop("grid_x", None)
    sblock = args.pop("sblock", None)
    limits = [(k, args.pop(k)) for k in _LIMITS if k in args]
    out: list = []   # (index, value) pairs, then named launch facts ("steps", n), ("grid_x", n), ...)
    for i, v in args.items():
        if not isinstance(i, int) or not 0 <= i < len(entry.params):
            raise ValueError(f"no parameter {i!r}: the kernel has {len(entry.params)}")
        if not isinstance(v, int) or isinstance(v, bool):
            raise ValueError(f"parameter {i}: an int is needed, not {v!r}")
        if i in divisible and v % 16:
            raise ValueError(f"parameter {i} = {v}: the code was compiled assuming a multiple of 16")
        out.append((i, v))
    out.sort()
    for k, v in limits:      # what the walk may spend: not part of the class, only of the memo
        if not isinstance(v, int) or isinstance(v, bool) or v < 1:
            raise ValueError(f"{k}: a positive int is needed, not {v!r}")
        out.append((k, v))
    if grid_x is not None:
        if not isinstance(grid_x, int) or isinstance(grid_x, bool) or not 1 <= grid_x < 2 ** 31:
            raise ValueError(f"grid_x: an int from 1 to 2^31 - 1 is needed, not {grid_x!r}")
        out.append(("grid_x", grid_x))
    if grid_z is not None:
        if not isinstance(grid_z, int) or isinstance(grid_z, bool) or not 1 <= grid_z <= 1024:
            raise ValueError(f"grid_z: an int from 1 to 1024 is needed, not {grid_z!r}")
        out.append(("grid_z", grid_z))
    if sblock is not None:
        if not isinstance(sblock, int) or isinstance(sblock, bool) or not 1 <= sblock <= _SBLOCK_MAX:
            raise ValueError(f"sblock: an int from 1 to {_SBLOCK_MAX} is needed, not {sblock!r}")
        if grid_x is not None or grid_z is not None:
            raise ValueError("sblock: not with grid_x or grid_z (the super-block walk substitutes program_id(0))")
        out.append(("sblock", sblock))
    return tuple(out)


def _params(bound: tuple) -> tuple:
    """_bind's parameter pairs without its named facts (limits, grid extents, the super-block)."""
    return tuple(b for b in bound if b[0] not in ("grid_x", "grid_z", "sblock", *_LIMITS))


def _facts(bound: tuple) -> tuple:
    """(parameter pairs, grid_x or None, grid_z or None, (steps, nodes) limits, 0 for the defaults, sblock or None)
    of _bind's tuple."""
    given = dict(bound)
    return _params(bound), given.get("grid_x"), given.get("grid_z"), (given.get("steps", 0), given.get("nodes", 0)), \
        given.get("sblock")


_SBLOCK_MAX = 256   # programs a super-block walk may unite (each is one walk)


def _united(walks, what: str):
    """(roots, the last walk's nodes) of several walks' (roots, nodes), united: what their programs store
    together. Two of them storing other trees or guards to one address are refused (`what` says which programs)."""
    merged, nodes = {}, None
    for r, nodes in walks:
        for k, v in r.items():
            if merged.setdefault(k, v) != v:
                raise dataflow.Unsupported(f"two {what} store to one address")
    return merged, nodes


def _walk_sblock(entry: Entry, divisible, params: tuple, r: int, limits=(0, 0)):
    """(roots, nodes) of the r programs r c + i (i = 0 .. r - 1) of super-block c, united, c a symbol: what
    those programs store together. Two programs storing to one address are refused."""
    return _united((dataflow.walk(entry, divisible=divisible, bound=params, limits=limits, sblock=(r, i))
                    for i in range(r)), "programs of a super-block")


def _walk_grid_z(entry: Entry, divisible, params: tuple, grid_z: int, grid_x=None, limits=(0, 0)):
    """(roots, nodes) of one block per program_id(2) value 0 .. grid_z - 1 (each walked with that
    value and the grid's z extent concrete), united: what the launch stores when a loop's bounds
    depend on program_id(2) (split-K spans). Two z blocks storing to one address are refused."""
    return _united((dataflow.walk(entry, divisible=divisible, bound=params, cta=(z, grid_z), grid_x=grid_x,
                                  limits=limits) for z in range(grid_z)), "program_id(2) blocks")


def _level(entry: Entry, divisible=frozenset(), text_signature: str | None = None, bound=()):
    """(signature, roots or None, why v1 declined or None). text_signature: the entry's
    canonical program-text signature when the caller has it already. bound: _bind's pairs; with
    ("grid_z", n) among them, a kernel the walk declines is walked once per program_id(2)."""
    params, grid_x, grid_z, limits, sblock = _facts(bound)
    try:
        why = ahead.refused(entry)     # what the walk would find at an add or a store, read before walking to it
        if why is not None:
            raise dataflow.Unsupported(why)
        if sblock is not None:
            r, nodes = _walk_sblock(entry, divisible, params, sblock, limits)
        else:
            try:
                r, nodes = dataflow.walk(entry, divisible=divisible, bound=params, grid_x=grid_x, limits=limits)
            except dataflow.Unsupported:
                if not grid_z:
                    raise
                r, nodes = _walk_grid_z(entry, divisible, params, grid_z, grid_x, limits)
        # a super-block's class leaves its program count out (kernels of other block sizes are to meet there),
        # and says it is one: it holds for launches of r x C programs, not for one grid
        kept = tuple(b for b in bound if b[0] not in (*_LIMITS, "sblock")) + \
            ((("sblock", "super-block"),) if sblock is not None else ())
        return dataflow.signature_of(r, divisible, kept), (r, nodes), None
    except dataflow.Unsupported as e:
        text = text_signature or canonicalize(entry).signature
        if sblock is not None:   # one program text run as r programs of a super-block or as r' is not one class
            text = hashlib.sha256(f"{text} in super-blocks of {sblock} programs".encode()).hexdigest()[:32]
        return "v0:" + text, None, str(e)


_MEMO: dict = {}   # hash of the canonical program text -> (signature, why v1 declined or None)


def _switches() -> tuple:
    """The walk's rule switches (loops.py: runtime and constant-trip folds, storefold.py, magic.py, memory.py,
    trips.py, the family walk, ahead.py's read-ahead): part of every memo key, as tests turn them."""
    return loops.ON, loops.CONST, storefold.STORES, magic.ON, memory.BYTE_PARTS, trips.ON, FAMILIES, ahead.ON


def _families(entry: Entry, divisible) -> str | None:
    """The v2 signature of a configuration (the walk over one symbolic thread and its canonical names), or None where
    that walk declines it."""
    from .families import names, walk      # (imported on first use: off by default)
    try:
        stores, n = walk.walk(entry, divisible)
        return names.signature(stores, n, divisible)
    except dataflow.Unsupported:
        return None


def _classify(entry: Entry, divisible=frozenset(), args=None):
    """(signature, why v1 declined or None), walked once per program text: configurations that
    compile to the same code up to names (num_stages of a loop-free kernel) share the walk."""
    text = canonicalize(entry).signature
    bound = _bind(entry, args, divisible)
    key = (text, divisible, bound, _switches())
    hit = _MEMO.get(key)
    if hit is None:
        sig = _families(entry, divisible) if FAMILIES and not bound else None
        why = None
        if sig is None:
            sig, _, why = _level(entry, divisible, text, bound)
        if len(_MEMO) > 100_000:
            _MEMO.clear()
        hit = _MEMO[key] = (sig, why)
    return hit


_BY_TEXT: dict = {}   # (hash of the PTX text as given, divisible parameters) -> _classify's answer


def _classify_ptx(ptx, args=None, store=False):
    """_classify for PTX text, a bitorder.Compiled or an Entry. The answer is a function of the
    text, the divisibility and the bound arguments alone, so a text seen before (the same kernel
    compiled again, or under a num_stages that changes nothing) is neither parsed nor
    canonicalised again."""
    # the cyclic collector off, as the walk has it (dataflow.walk): parsing allocates thousands
    # of objects, enough to trigger full collections that re-scan the memos of every walk; the
    # reading makes no cycles, and any garbage would be collected once it is back on
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _classify_ptx_text(ptx, args, store)
    finally:
        if collecting:
            _age()
            gc.enable()


def _age() -> None:
    """Move every object the collector tracks to its oldest generation, unscanned (gc.freeze, then gc.unfreeze), unless
    the caller froze objects of its own. What a walk leaves alive (its memos' entries: tens of thousands of tuples a
    walk) was allocated with the collector off, all of it young: the first allocation after gc.enable() would scan it
    all, then again as it aged, about a tenth of the checker's time (benchmarks/results/2026-12-07f-checker-cpu). In
    the oldest generation it is scanned only by the full collections the process makes anyway. No object is freed or
    kept alive by this: cyclic garbage among them is collected by the next full collection. Nothing is done where the
    young generation would not be scanned anyway (a memo hit: below its threshold), so gc.get_freeze_count, which
    counts the caller's frozen objects one by one, is not asked on that path."""
    if gc.get_count()[0] > gc.get_threshold()[0] and not gc.get_freeze_count():
        gc.freeze()
        gc.unfreeze()


def _ptx_text(ptx):
    """The PTX text of what signature takes (text, a bitorder.Compiled, a Triton CompiledKernel or its asm dict), or
    what is there instead (an Entry: not text)."""
    text = getattr(ptx, "asm", ptx)
    return text.get("ptx") if isinstance(text, dict) else text


def _classify_ptx_text(ptx, args, store=False):
    """_classify_ptx's answer (the collector as the caller left it); store: read and keep it on disk too."""
    divisible = divisible_params(ptx)
    if isinstance(ptx, Entry):
        return _classify(ptx, divisible, args)
    text = _ptx_text(ptx)
    if not isinstance(text, str):
        return _classify(_entry(ptx), divisible, args)
    # the values' types too: True and 2.0 equal 1 and 2, but _bind refuses them (a hit must not skip that)
    key = (hashlib.sha256(text.encode()).digest(), divisible,
           tuple(sorted(((k, v.__class__.__name__, v) for k, v in (args or {}).items()), key=str)), _switches())
    hit = _BY_TEXT.get(key)
    if hit is None:
        on_disk = (key[0].hex(), tuple(sorted(divisible)), key[2], key[3]) if store else None
        hit = disk.get(on_disk) if store else None
        if hit is None:
            hit = _classify(_entry(text), divisible, args)
            if store:
                disk.put(on_disk, hit)
        if len(_BY_TEXT) > 100_000:
            _BY_TEXT.clear()
        _BY_TEXT[key] = hit
    return hit


def signature(ptx, args=None, store=False) -> str:
    """The bitwise class of a compiled kernel (PTX text, a bitorder.Compiled, a Triton CompiledKernel or its asm
    dict, or an Entry):
    equal signatures mean identical bytes on every input (same grid, outputs not
    overlapping inputs). args ({PTX parameter index: int}, a launch's integer arguments) binds
    those parameters: the class then holds for launches with exactly these values (any data,
    any pointers), and loops over them are followed turn by turn (a GEMM's runtime K). With
    "grid_z": n in args, a kernel whose loops depend on program_id(2) is walked once per z < n
    (split-K spans) and the class holds for that grid depth too. With "grid_x": n, %nctaid.x is n
    and program_id(0) ranges over 0 .. n - 1: branches and masks that range decides (a loop
    LLVM unswitched on `program_id(0) < xnumel`) are followed, and the class holds for grids n
    wide. With "sblock": r, program_id(0) is r c + i and the r programs i = 0 .. r - 1 of super-block c are
    walked and united: the class then holds for launches of r x C programs along x (any C, the same y and z
    extents), and kernels of other block sizes meet in it when they store the same there: a configuration of
    BLOCK elements a program, launched over n / BLOCK programs, and one of 2 BLOCK over n / 2 BLOCK, are classed
    with r = 2 and 1 (C = n / (2 BLOCK)); the programs are taken to store to distinct addresses. "steps" and
    "nodes" raise what the walk may spend before it falls back to the program
    text (instructions executed, default 20,000; tree nodes, default 2,000,000): a long loop
    with a constant trip count is then followed to its end. They are not part of the class.
    store=True reads and keeps the answer on disk (check/store.py: $BITORDER_CACHE_DIR/signatures, filed under
    this checker's source digest), so another process classing the same text does not walk it again."""
    return _classify_ptx(ptx, args, store)[0]


def level(ptx, args=None, store=False) -> str:
    """Which checker level classes this kernel, and why v1 declined when it did (store: as signature's)."""
    sig, why = _classify_ptx(ptx, args, store)
    return "v1: dependence trees" if sig.startswith("v1:") else "v2: element families" if sig.startswith("v2:") \
        else f"v0: program text ({why})"


_PAST_S = ("past:s",)   # stores_past_end's symbol s >= 0: the launch's xnumel is p XBLOCK - s
_PAST: dict = {}   # (hash of the PTX text, divisible parameters, parameter, xblock, switches) -> stores_past_end


def stores_past_end(ptx, param: int, xblock: int) -> bool:
    """Whether a program p of this kernel may store anything where parameter `param` (TorchInductor's xnumel, a
    runtime size) is at most p xblock, that is where p is past cdiv(xnumel, xblock), the programs a Grid1D launch
    runs: False only where a walk of program p (p a symbol) with xnumel = p xblock - s, s >= 0 any integer, finds
    every store's guard false (the masks `x < xnumel` of x >= p xblock); True where a store may remain or the walk
    does not decide. A kernel for which this is False stores, over any super-block of programs, only what the
    programs a launch runs store: so its super-block classes (signature's "sblock") hold for launches over
    cdiv(xnumel, xblock) programs whatever xnumel is (tritoncache.frames)."""
    from .poly import atom, padd, pmul
    divisible = divisible_params(ptx) - {param}
    text = _ptx_text(ptx)
    # (an Entry given: no memo, its text not at hand; a hit was a call that checked param and xblock)
    key = (hashlib.sha256(text.encode()).digest(), divisible, param, xblock, _switches()) \
        if isinstance(text, str) else None
    hit = _PAST.get(key) if key is not None else None
    if hit is None:
        entry = _entry(ptx)
        if not 0 <= param < len(entry.params) or not isinstance(xblock, int) or xblock < 1:
            raise ValueError(f"no parameter {param!r} or xblock {xblock!r} for a kernel of {len(entry.params)} "
                             "parameters")
        end = padd(pmul(atom("ctaid_x"), xblock), {_PAST_S: 1}, -1)   # xnumel = p xblock - s
        try:
            roots, _ = dataflow.walk(entry, divisible=divisible, bound=((param, end),), nonneg={_PAST_S})
            hit = bool(roots)
        except dataflow.Unsupported:
            hit = True
        if key is not None:
            if len(_PAST) > 10_000:
                _PAST.clear()
            _PAST[key] = hit
    return hit


@dataclass(frozen=True)
class Verdict:
    equivalent: bool
    explanation: str

    def __bool__(self):
        return self.equivalent


def equivalent(ptx_a, ptx_b, args=None) -> Verdict:
    """Whether two compiled kernels return the same bits on every input, with the first
    difference when they may not (v0 calls programs that differ in any instruction
    different: 'not equivalent' means 'not proven equivalent'). args: as signature's, the same
    integer arguments for both (a launch's; the verdict holds for exactly those)."""
    ea, eb = _entry(ptx_a), _entry(ptx_b)
    da, db = divisible_params(ptx_a), divisible_params(ptx_b)
    ba, bb = _bind(ea, args, da), _bind(eb, args, db)
    if FAMILIES and not ba and not bb:    # (either level's proof will do: each is sound alone)
        fa = _families(ea, da)
        if fa is not None and fa == _families(eb, db):
            return Verdict(True, "the same trees at every output element (v2: element families)")
    (sa, ra, why_a), (sb, rb, why_b) = _level(ea, da, bound=ba), _level(eb, db, bound=bb)
    if sa == sb:  # the one decision: signatures, as partition() uses
        return Verdict(True, "the same dependence tree at every output address" if ra is not None
                       else "the same program up to register, label and parameter names")
    if ra is not None and rb is not None:
        (ra, na), (rb, nb) = ra, rb
        for k in sorted(set(ra) | set(rb)):
            x, y = ra.get(k), rb.get(k)
            if x == y:
                continue
            if x is not None and y is not None and x[1] != y[1]:
                try:   # walked again with shapes, under the same launch facts as the signatures
                    na, nb = _shaped(ea, da, ba), _shaped(eb, db, bb)
                    where = dataflow.first_difference(x[1], na, y[1], nb)
                except dataflow.Unsupported as e:   # walked per program_id(2) or per super-block program
                    where = "(walked per program_id(2))" if "super-block" not in str(e) else f"({e})"
                return Verdict(False, f"output address {k}: the trees differ {where}")
            return Verdict(False, f"output address {k}: {_root(x)} vs {_root(y)}")
    if (ra is None) != (rb is None):
        return Verdict(False, f"only one kernel is one the tree walk can read ({why_a or why_b})")
    a, b = canonicalize(ea), canonicalize(eb)
    for i, (x, y) in enumerate(zip(a.lines, b.lines)):
        if x != y:
            return Verdict(False, f"first difference at statement {i}: {a.source[i] or x!r} vs {b.source[i] or y!r}")
    return Verdict(False, f"one program is longer: {len(a.lines)} vs {len(b.lines)} statements")


def _shaped(entry: Entry, divisible, bound: tuple):
    """The Nodes of entry's walk with their shapes, under bound's parameters, grid_x and limits."""
    params, grid_x, _, limits, sblock = _facts(bound)
    if sblock is not None:   # the trees of r walks: no one Nodes table holds their shapes
        raise dataflow.Unsupported("walked per program of a super-block")
    return dataflow.walk(entry, True, divisible, params, grid_x=grid_x, limits=limits)[1]


def _root(r) -> str:
    return "no store" if r is None else f"tree {r[1][:12]} under guard {r[0][:60]}"


def partition(kernels, args=None, progress=None, store=False) -> list:
    """Indices of `kernels` grouped into bitwise classes, in first-seen order (args, store: signature's; progress:
    called with no argument after each kernel is classed, for a progress bar)."""
    classes = {}
    for i, k in enumerate(kernels):
        classes.setdefault(signature(k, args, store), []).append(i)
        if progress is not None:
            progress()
    return list(classes.values())
