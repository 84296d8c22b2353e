"""The forms of families that names.py compares and computes with: whether two families are one expression up to the
integers and predicates they hold (_same_shape), which of two operands' leaves comes first (_first_difference), and
the multilinear polynomials over element bits that name integers (element bits idempotent: x x = x)."""
from __future__ import annotations

import functools

from ..poly import _norm, _poly
from . import floats as ff
from . import predicates as fp
from .joins import _BIT


def _same_shape(a, b, memo: dict) -> bool:
    """Whether families a and b are one expression up to the integers and predicates they hold."""
    if a is b:
        return True
    key = (id(a), id(b))
    hit = memo.get(key)
    if hit is None:
        ca = a.__class__
        if ca is not b.__class__:
            hit = ca in (int, dict) and b.__class__ in (int, dict)
        elif ca is fp.Each and (ff.has_float(a) or ff.has_float(b)):   # (floats compared: one shape node by node)
            hit = (a.how, a.op, len(a.args)) == (b.how, b.op, len(b.args)) and \
                all(_same_shape(x, y, memo) for x, y in zip(a.args, b.args))
        elif ca in (int, dict, bool, fp.Mask, fp.Each):
            hit = True
        elif ca is ff.Leaf:
            hit = a.width == b.width
        elif ca is ff.Node:
            hit = a.op == b.op and len(a.kids) == len(b.kids) and \
                all(_same_shape(x, y, memo) for x, y in zip(a.kids, b.kids))
        elif ca is ff.Select:
            hit = _same_shape(a.a, b.a, memo) and _same_shape(a.b, b.b, memo) and \
                (not (ff.has_float(a.pred) or ff.has_float(b.pred)) or _same_shape(a.pred, b.pred, memo))
        elif ca is ff.Red:
            hit = a.op == b.op and _same_shape(a.of, b.of, memo)
        elif ca is ff.Pack:
            hit = a.pw == b.pw and len(a.parts) == len(b.parts) and \
                all(_same_shape(x, y, memo) for x, y in zip(a.parts, b.parts))
        elif ca is ff.Part:
            hit = (a.i, a.n, a.width) == (b.i, b.n, b.width) and _same_shape(a.of, b.of, memo)
        elif ca is ff.Bits:
            hit = a.op == b.op and len(a.args) == len(b.args) and \
                all(_same_shape(x, y, memo) for x, y in zip(a.args, b.args))
        else:
            hit = False
        memo[key] = hit
    return hit


def _first_difference(a, b, memo: dict) -> int:
    """The sign of the first leaf address where b differs from a (b - a: its constant, else its first monomial's
    coefficient), in the operands' own order; 0 where none does."""
    if a is b or id(a) in memo:
        return 0
    memo[id(a)] = True
    ca = a.__class__
    if ca is ff.Leaf and b.__class__ is ff.Leaf:
        d = _norm(_add(_poly(b.address), {m: -c for m, c in _poly(a.address).items()}))
        if d.__class__ is int:
            return (d > 0) - (d < 0)
        # (monomials of bound atoms, "bv:r<id>", ordered by an id: the orientation would vary from run to run)
        d = {m: c for m, c in d.items() if not any(x.startswith("bv:") for x in m)}
        c = d[min(d)] if d else 0
        return (c > 0) - (c < 0)
    kids = (list(zip(a.kids, b.kids)) if ca is ff.Node else [(a.a, b.a), (a.b, b.b)] if ca is ff.Select else
            [(a.of, b.of)] if ca in (ff.Red, ff.Part) else list(zip(a.parts, b.parts)) if ca is ff.Pack else
            list(zip(a.args, b.args)) if ca is ff.Bits else [])
    for x, y in kids:
        sign = _first_difference(x, y, memo)
        if sign:
            return sign
    return 0


def _reads(bits: int, k: int, width: int) -> bool:
    """Whether the truth table `bits` over `width` inputs depends on input k: the entries with input k clear, moved
    onto those with it set, differ from them (two big-integer operations, not a loop over the entries)."""
    low = _half_mask(k, width)
    return ((bits & low) << (1 << k)) != (bits & (low << (1 << k)))


@functools.lru_cache(maxsize=4096)
def _half_mask(k: int, width: int) -> int:
    """The entries i < 2^width of a truth table whose bit k is clear, as a bit mask: runs of 2^k ones every 2^(k+1)."""
    period, size = 1 << (k + 1), 1 << width
    return ((1 << (1 << k)) - 1) * (((1 << size) - 1) // ((1 << period) - 1))


def _add(a: dict, b: dict) -> dict:
    out = dict(a)
    for m, c in b.items():
        out[m] = out.get(m, 0) + c
    return out


def _into(out: dict, b: dict) -> None:
    """out += b in place (_add without the copy: a sum built term by term stays linear in its terms)."""
    for m, c in b.items():
        out[m] = out.get(m, 0) + c


def _mul(a: dict, b: dict) -> dict:
    """The product of two polynomials, element bits idempotent (x x = x), other atoms not."""
    out: dict = {}
    for m1, c1 in a.items():
        for m2, c2 in b.items():
            m = _MONOMIALS.get(m1 + m2)
            if m is None:
                m = _monomial(m1 + m2)
            out[m] = out.get(m, 0) + c1 * c2
    return out


_MONOMIALS: dict = {}   # a product's atoms -> its monomial (_monomial): the same few products recur in every name


def _monomial(both: tuple) -> tuple:
    """The monomial of a product of atoms: sorted, element bits once (x x = x), other atoms as often as they occur."""
    if len(_MONOMIALS) > 100_000:
        _MONOMIALS.clear()
    m = _MONOMIALS[both] = tuple(sorted([x for x in both if not x.startswith(_BIT)] +
                                        list({x for x in both if x.startswith(_BIT)})))
    return m
