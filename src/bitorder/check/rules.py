"""What the walk (dataflow.py) reads off the code before it runs it: operand texts decoded once,
the branches it may follow or guard (forward branches over straight-line code), and the normal
form of signed integer comparisons."""
from __future__ import annotations

import functools
import math
import re

from .ptx import Instr, Label
from .poly import atom, _norm, padd, pkey
from .symbolic import _FLOAT_TYPE, Unsupported


_BITS16 = ("mov.b16", "mov.u16")   # moves whose constant is written as its 16-bit pattern (dataflow, trips)
_NOT_IN_REGION = {"bra", "bar", "barrier", "shfl", "ldmatrix", "stmatrix", "ret", "exit", "call", "brx"}


# an if-else arm runs in a divergent subset of the threads: no memory side effect, no collective over the
# active threads (their result would depend on which threads diverged), nothing but register arithmetic
_NOT_IN_ARM = {"ld", "st", "cp", "wgmma", "mma", "atom", "red", "vote", "match", "redux", "activemask", "membar",
               "fence", "mbarrier", "tex", "tld4", "suld", "sust", "sured", "prefetch", "prefetchu", "trap",
               "nanosleep", "elect", "setmaxnreg", "griddepcontrol", "cvta", "isspacep", "applypriority",
               "discard", "createpolicy", "multimem", "tensormap", "clusterlaunchcontrol", "alloca", "stackrestore",
               "stacksave", "pmevent", "brkpt"}


def _hammock(body, at, labels):
    """The index of a guarded forward branch's target when everything between is straight-line
    code a thread may simply skip (no label, branch, barrier, shuffle or matrix move), else None."""
    ins = body[at]
    if ins.guard is None or ins.operands[0] not in labels:
        return None
    end = labels[ins.operands[0]]
    if end <= at:
        return None
    for item in body[at + 1:end]:
        if isinstance(item, Label) or item.base in _NOT_IN_REGION or item.opcode.startswith("bar"):
            return None
    return end


def _diamond(body, at, labels):
    """(arm A's first index, arm A's end, arm B's first index, the join's index) when the guarded
    branch at `at` opens an if-else over straight-line register code, as LLVM lays one out
    (libdevice's tanhf, per element):
        @p bra X;  bra.uni Y;  X: <A>  bra.uni Z;  Y: <B>  Z:
    a thread where p holds runs A, any other runs B, and both go on at Z; else None. A and B hold
    no label, branch, barrier, shuffle, matrix move or memory access (parameter loads aside), and
    no other branch enters X or Y, so A and B are all that run between the branch and Z."""
    ins = body[at]
    if ins.guard is None or at + 2 >= len(body) or labels.get(ins.operands[0]) != at + 2:
        return None
    jump = body[at + 1]
    if jump.__class__ is not Instr or jump.base != "bra" or jump.guard is not None:
        return None
    y = labels.get(jump.operands[0])
    if y is None or y <= at + 3:
        return None
    join = body[y - 1]          # arm A's last statement: the unguarded jump over arm B
    if join.__class__ is not Instr or join.base != "bra" or join.guard is not None:
        return None
    z = labels.get(join.operands[0])
    if z is None or z <= y:
        return None
    for item in body[at + 3:y - 1] + body[y + 1:z]:
        if item.__class__ is not Instr or item.base in _NOT_IN_REGION or item.opcode.startswith("bar") \
                or item.base in _NOT_IN_ARM and not (item.base == "ld" and ".param" in item.opcode):
            return None
    targets = [i.operands[0] for i in body if i.__class__ is Instr and i.base == "bra" and i.operands]
    if targets.count(body[at + 2].name) != 1 or targets.count(body[y].name) != 1:
        return None
    return at + 3, y - 1, y + 1, z


def _branches_on_constants(body, labels, bound=frozenset(), cta_z=False, grid_x=False, exempt=frozenset()) -> dict:
    """Refuse at once (before a long walk) a branch whose predicate may depend on anything but
    the thread index and constants: a flow-insensitive closure over register definitions.
    Forward branches over straight-line code, and if-else diamonds of it, are exempt: the walk
    guards that code instead. Returns those: branch index -> the index where every thread runs on
    (the hammock's end, the diamond's join), which trips.exceeds counts as skipped.
    labels: label -> index in body.
    bound: names of parameters whose values are given (a launch's integers): loads of them are
    constants; cta_z: %ctaid.z and %nctaid.z are given too; grid_x: %ctaid.x and %nctaid.x are
    left to the walk (the launch grid's x extent is given: a branch the range of %ctaid.x decides
    is taken one way, any other is refused when the walk reaches it). exempt: indices of branches the
    walk folds (loops.py: back edges of loops over a runtime bound, and the branches that skip them)."""
    straight, branches = {}, []
    for k, i in enumerate(body):
        if i.__class__ is Instr and i.guard and i.base == "bra":
            end = _hammock(body, k, labels)
            if end is None:
                arms = _diamond(body, k, labels)
                end = arms[3] if arms is not None else None
            if end is not None:
                straight[k] = end
            elif k not in exempt:
                branches.append(i.guard[1])
    if not branches:
        return straight
    # backwards from the branch predicates (their cone is small; the program need not be read
    # whole): a predicate is symbolic if a register it depends on is loaded or computed from ctaid
    defs = {}   # register -> the instructions whose first operand names it (stores and barriers skipped below)
    find = _REG.findall
    for i in body:
        if i.__class__ is Instr and i.operands:
            for d in find(i.operands[0]):
                defs.setdefault(d, []).append(i)
    seen, todo = set(branches), list(branches)
    while todo:
        for i in defs.get(todo.pop(), ()):
            if i.base in ("st", "bra", "bar", "barrier"):
                continue
            srcs = _REG.findall(" ".join(i.operands[1:]))
            if i.guard:
                srcs.append(i.guard[1])
            constant = bool(bound) and i.base == "ld" and ".param" in i.opcode and _address(i.operands[1])[0] in bound
            given = (("%ctaid.z", "%nctaid.z") if cta_z else ()) + (("%ctaid.x", "%nctaid.x") if grid_x else ())
            if (i.base == "ld" and not constant) or any(x.startswith(("%ctaid", "%nctaid")) and x not in given
                                                        for x in srcs):
                raise Unsupported("a branch on a symbolic or divergent condition (a loop over a runtime bound, or "
                                  "divergence on data)")
            for x in srcs:
                if x not in seen:
                    seen.add(x)
                    todo.append(x)
    return straight


_REG = re.compile(r"%[A-Za-z_$][\w$]*(?:\.[xyz])?")


@functools.lru_cache(maxsize=None)
def _operand(op: str):
    """What an operand text names, decoded once: ('reg', name), ('tid'|'ntid', None) or
    ('value', a constant or a symbol)."""
    op = op.strip()
    if op == "%tid.x":
        return "tid", None
    if op == "%ntid.x":
        return "ntid", None
    if op in ("%tid.y", "%tid.z"):
        return "value", 0
    m = re.fullmatch(r"%(ctaid|nctaid)\.([xyz])", op)
    if m:
        return "value", atom(f"{m.group(1)}_{m.group(2)}")
    if op.startswith("%"):
        return "reg", op
    if re.fullmatch(r"-?\d+", op):
        return "value", int(op)
    if re.fullmatch(r"0[xX][0-9A-Fa-f]+U?", op):   # (prmt's selector carries a U suffix)
        return "value", int(op.rstrip("U"), 16)
    if re.fullmatch(r"0[fF][0-9A-Fa-f]{8}|0[dD][0-9A-Fa-f]{16}", op):
        return "value", int(op[2:], 16)   # a float constant is its bits
    if op == "global_smem":
        return "value", atom("smem")
    raise Unsupported(f"operand {op!r}")


@functools.lru_cache(maxsize=None)
def _float_cmp(op: str) -> bool:
    """Whether a setp compares floating-point values (its type), decided once per opcode."""
    return bool(_FLOAT_TYPE.search(op))


@functools.lru_cache(maxsize=None)
def _address(text: str):
    """'[%rd5+16]' -> ('%rd5', 16), parsed once per operand text."""
    m = re.fullmatch(r"\[\s*([^\]+]+?)\s*(?:\+\s*(-?\d+))?\s*\]", text)
    if not m:
        raise Unsupported(f"address {text!r}")
    return m.group(1).strip(), int(m.group(2) or 0)


@functools.lru_cache(maxsize=None)
def _last_part(op: str) -> str:
    return op.split(".")[-1]


@functools.lru_cache(maxsize=None)
def _reg_list(text: str) -> tuple:
    """'{ %r1, %r2 }' -> ('%r1', '%r2'); '%r1' -> ('%r1',)."""
    return tuple(r.strip() for r in text.strip("{} ").split(","))


@functools.lru_cache(maxsize=None)
def _cvt_types(op: str):
    return [p for p in op.split(".")[1:] if re.fullmatch(r"[sub](8|16|32|64)", p)][-2:]


def _linear_cmp(cmp, a, b):
    """A signed comparison of integer polynomials in a normal form, exact over the integers
    (indices do not wrap): D < 0 (or D == 0) with D's symbolic coefficients divided by their
    gcd g and the constant k floored accordingly, since gE + k < 0 <=> E + floor(k/g) < 0.
    Guards that differ only in how coarsely a vectorised access groups its elements against a
    bound known to be a multiple of 16 meet in one form; different conditions never do."""
    # (a chain of tests, not a table of six closures built per call: this runs per thread)
    if cmp == "lt" or cmp == "eq" or cmp == "ne":
        d = padd(a, b, -1)
    elif cmp == "le":
        d = padd(padd(a, b, -1), -1)
    elif cmp == "gt":
        d = padd(b, a, -1)
    elif cmp == "ge":
        d = padd(padd(b, a, -1), -1)
    else:
        raise KeyError(cmp)
    if isinstance(d, int):
        return {"lt": d < 0, "le": d < 0, "gt": d < 0, "ge": d < 0, "eq": d == 0, "ne": d != 0}[cmp]
    k = d.get((), 0)
    g = math.gcd(*(c for m, c in d.items() if m))
    e = {m: c // g for m, c in d.items() if m}
    if cmp in ("eq", "ne"):
        if k % g:                          # gE = -k has no integer solution
            return cmp == "ne"
        e[()] = k // g
        if e[min(m for m in e if m)] < 0:   # one sign for equalities
            e = {m: -c for m, c in e.items()}
        return ("cmp0", "eq" if cmp == "eq" else "ne", pkey(_norm(e)))
    e[()] = k // g                         # floor division: the exact integer bound
    return ("cmp0", "lt", pkey(_norm(e)))


def _is_memory(ins) -> bool:
    """Whether ins is a global or shared load or store (not a parameter load): memory.py's."""
    op = ins.opcode
    return ins.base in ("ld", "st") and ".param" not in op and (".global" in op or ".shared" in op)


def _text_shape(ins):
    """_Block._shape's (registers written, registers read, may run once), a function of the
    instruction's guard, opcode and operand texts alone: memoised across walks (a quarter of the
    stored corpus's instruction texts recur in other configurations' programs)."""
    key = (ins.guard, ins.opcode, ins.operands)
    hit = _TEXT_SHAPE.get(key)
    if hit is not None:
        return hit
    text = " ".join(ins.operands)
    writes = ins.base not in ("st", "stmatrix") and not ins.opcode.startswith("bar")
    dsts = tuple(_REG.findall(ins.operands[0])) if writes and ins.operands else ()
    srcs = frozenset(_REG.findall(" ".join(ins.operands[1:] if writes else ins.operands)))
    once = (ins.guard is None and len(dsts) == 1 and "{" not in text and "%tid" not in text
            and "%laneid" not in text and "%warpid" not in text
            and (ins.base not in ("ld", "st", "shfl", "ldmatrix", "stmatrix", "bar", "barrier")
                 or (ins.base == "ld" and ".param" in ins.opcode)))
    srcs = frozenset(r for r in srcs if not r.startswith(("%ctaid", "%nctaid", "%ntid")))
    if len(_TEXT_SHAPE) > 200_000:
        _TEXT_SHAPE.clear()
    hit = _TEXT_SHAPE[key] = (dsts, srcs, once)
    return hit


_TEXT_SHAPE = {}   # (guard, opcode, operands) -> _text_shape's answer
