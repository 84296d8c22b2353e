"""Integers as polynomials over atoms, the checker's integer values (symbolic.py holds the rest):
{monomial (a sorted tuple of atom names): coefficient}, canonical texts for them, and names for
long texts. Exact ring arithmetic; anything else becomes an atom named by its operands."""
from __future__ import annotations

import hashlib
import itertools


def _poly(x):
    """int -> {(): x}; a polynomial is {monomial (sorted tuple of atom names): coefficient}."""
    return x if isinstance(x, dict) else ({(): x} if x else {})


def _norm(p):
    if 0 in p.values():   # a coefficient cancelled
        p = {m: c for m, c in p.items() if c}
    if len(p) > 1:
        return p
    return 0 if not p else (p[()] if () in p else p)


def padd(a, b, sign=1):
    cb = b.__class__
    if cb is int:
        if a.__class__ is dict:   # an address plus an offset (the common case): the constant term only
            out = a.copy()
            if b:
                out[()] = out.get((), 0) + sign * b
            return _norm(out)
        if a.__class__ is int:
            return a + sign * b
    if isinstance(a, int) and isinstance(b, int):
        return a + sign * b
    out = dict(a) if isinstance(a, dict) else ({(): a} if a else {})
    if isinstance(b, dict):
        for m, c in b.items():
            out[m] = out.get(m, 0) + sign * c
    elif b:              # a constant: the common offset of an address or an index
        out[()] = out.get((), 0) + sign * b
    return _norm(out)


def pmul(a, b):
    if isinstance(a, int) and isinstance(b, int):
        return a * b
    if isinstance(b, int) or isinstance(a, int):   # a scaled polynomial (monomials stay sorted)
        p, k = (a, b) if isinstance(b, int) else (b, a)
        return _norm({m: c * k for m, c in p.items()}) if k else 0
    out = {}
    for (m1, c1), (m2, c2) in itertools.product(a.items(), b.items()):
        m = tuple(sorted(m1 + m2))
        out[m] = out.get(m, 0) + c1 * c2
    return _norm(out)


def ring(base: str, args):
    """add, sub, mul, mad or shl (by a constant) of integers and polynomials: exact ring arithmetic, unwrapped (the
    walk's index arithmetic, check/integers.py, and the symbolic thread's, check/families/integers.py)."""
    if base == "add":
        return padd(args[0], args[1])
    if base == "sub":
        return padd(args[0], args[1], -1)
    if base == "mul":
        return pmul(args[0], args[1])
    if base == "mad":
        return padd(pmul(args[0], args[1]), args[2])
    return pmul(args[0], 1 << args[1])


def pkey(p) -> str:
    if isinstance(p, int):
        return str(p)
    # memoised by the items in the dict's own order: equal tuples are equal polynomials, so the
    # text is theirs whatever order built them (an address's text is asked for in every thread)
    items = tuple(p.items())
    text = _PKEY.get(items)
    if text is None:
        ordered = sorted(items)
        try:
            text = "+".join([_TERM[i] for i in ordered])
        except KeyError:
            text = "+".join([_TERM[i] if i in _TERM else _term(i) for i in ordered])
        if len(_PKEY) > 200_000:
            _PKEY.clear()
        _PKEY[items] = text
    return text


_PKEY = {}   # tuple(polynomial.items()) -> pkey's text


# (monomial, coefficient) -> its text "c*x*y", rendered once (pkey runs per thread per access);
# coefficients are plain ints (never bools), so equal items render equally
_TERM = {}


def _term(item) -> str:
    if len(_TERM) > 200_000:
        _TERM.clear()
    m, c = item
    text = _TERM[item] = f"{c}*{'*'.join(m) or '1'}"
    return text


UNDEF = "UNDEF#"          # marks integers computed from a register never written
UNDEF_PRED = ("undef",)    # a predicate computed from one


def short(text: str) -> str:
    """A name for a long canonical text: its hash (names nest; without this they grow
    exponentially along chains of selects and predicates). The undefined mark survives."""
    if len(text) <= 96:
        return text
    return (UNDEF if UNDEF in text else "#") + hashlib.blake2b(text.encode(), digest_size=12).hexdigest()


def pname(p) -> str:
    """short(str(p)), memoised for a tuple (a predicate: texts and ints, equal ones with equal texts, as
    predicates.select's cache has them): a predicate is named where it is built, combined, tested and selected on."""
    if p.__class__ is not tuple:
        return short(str(p))
    try:
        hit = _PNAME.get(p)
    except TypeError:    # (a tuple holding a polynomial: named, not memoised)
        return short(str(p))
    if hit is None:
        hit = short(str(p))
        if len(_PNAME) > 200_000:
            _PNAME.clear()
        _PNAME[p] = hit
    return hit


_PNAME: dict = {}   # a predicate tuple -> pname's text


def atom(text):
    return {(short(text),): 1}


def op_atom(op: str, args) -> dict:
    """The opaque atom of an integer operation the rules do not read: named by its opcode and its operands' texts,
    so it equals only the same operation on the same operands (check/integers.py, check/families/integers.py)."""
    return atom(f"{op}({','.join(pkey(a) for a in args)})")


def _cap(p):
    """A polynomial with very many terms becomes an atom named by its canonical text (exact:
    the same value; it only stops further cancellation)."""
    return atom(pkey(p)) if isinstance(p, dict) and len(p) > 64 else p


def _is_int(v):
    return isinstance(v, (int, dict))
