"""Integer predicates over one symbolic thread (docs/check-families.md, step 1): what a setp on integer families,
and the and / or / xor / not of predicates, hold in every thread at once.

A comparison of two families that read no symbol (masks on the thread index: `(tid & 63) < 2`, `lane == 0`) is a
`Mask`: one bit per thread, computed once per instruction as the concrete walk computes the comparison in each
thread, and combined bitwise. A comparison that reads a symbol (`4 tid + 256 ctaid < N`) is an `Each`: in thread t
it is the concrete walk's own normal form of the comparison of the operands put at t (bits.int_form), so it is named
by its operation and operand families, and at a thread it is exactly what the walk holds there. A combination with
an `Each` is an `Each` of the walk's combination (predicates._pred)."""
from __future__ import annotations

from dataclasses import dataclass

from ..bits import int_form
from ..poly import UNDEF_PRED
from ..predicates import _pred
from ..rules import _float_cmp
from ..symbolic import _itype, _wrap
from . import integers as fi

_ORDER = {"lt": int.__lt__, "le": int.__le__, "gt": int.__gt__, "ge": int.__ge__, "eq": int.__eq__, "ne": int.__ne__}


@dataclass(frozen=True)
class Mask:
    """A predicate of the thread index alone: bit t of `bits` is its value in thread t, of n threads."""
    bits: int
    n: int


@dataclass(frozen=True)
class Each:
    """A predicate that reads a symbol: in thread t, the concrete walk's form of `how` ("cmp": the comparison `op`
    of two integer families; "pred": the combination `op` of predicates) applied to `args` put at t."""
    how: str
    op: str
    args: tuple


def _mask(bits: int, n: int):
    """A Mask, or the constant it is (every thread true, or none)."""
    full = (1 << n) - 1
    return True if bits == full else False if bits == 0 else Mask(bits, n)


def compare(op: str, a, b, n: int):
    """setp.op of integer families a and b over n threads: a bool, a Mask or an Each (a float comparison: None)."""
    cmp = op.split(".")[1]
    if _float_cmp(op) or cmp not in _ORDER:
        return None
    if fi._free_of_symbols(a) and fi._free_of_symbols(b):
        signed, width = _itype(op)
        test = _ORDER[cmp]
        bits = 0
        for t, (x, y) in enumerate(zip(fi.values(a, n), fi.values(b, n))):
            if test(_wrap(x, signed, width), _wrap(y, signed, width)):
                bits |= 1 << t
        return _mask(bits, n)
    return Each("cmp", op, (a, b))


def combine(base: str, args: list, n: int):
    """and / or / xor / not of predicates over n threads (base: the opcode's first part)."""
    if all(a.__class__ in (bool, Mask) for a in args):
        full = (1 << n) - 1
        bits = [(full if a else 0) if a.__class__ is bool else a.bits for a in args]
        if base == "not":
            return _mask(full & ~bits[0], n)
        x, y = bits
        return _mask(x & y if base == "and" else x | y if base == "or" else x ^ y, n)
    return Each("pred", base, tuple(args))


def at_thread(p, t: int):
    """The concrete walk's value of predicate p in thread t."""
    if p.__class__ is bool or p == UNDEF_PRED:
        return p
    if p.__class__ is Mask:
        return bool(p.bits >> t & 1)
    if p.how == "cmp":
        a, b = (fi.at_thread(x, t) for x in p.args)
        if a.__class__ is int and b.__class__ is int:
            signed, width = _itype(p.op)
            return _ORDER[p.op.split(".")[1]](_wrap(a, signed, width), _wrap(b, signed, width))
        return int_form(p.op, p.op.split(".")[1], a, b)
    return _pred(p.op, [at_thread(x, t) for x in p.args])
