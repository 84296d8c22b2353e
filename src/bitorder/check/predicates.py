"""Predicates and selects of the walk (dataflow.py): integer predicates decided exactly where they
can be (constants, disjoint bits), a predicate's complement (negate: exact, so a select on a
negative form is the select on its positive form with the arms swapped), float comparisons keyed
by one of each mirrored pair (float_form), and select's value "g ? a : b" named by its predicate."""
from __future__ import annotations

from . import onehot, payloads
from .poly import UNDEF_PRED, pname
from .symbolic import Unsupported, _itype, _wrap


def _disjoint(a, b, op) -> bool:
    """Whether the set bits of a and b cannot overlap: b = c0 + 2^m * Q for a polynomial Q,
    with the constants c0 and a both below 2^m and sharing no bit."""
    if isinstance(a, dict):
        a, b = b, a
    if not isinstance(a, int) or not isinstance(b, dict):
        return False
    _, bits = _itype(op)
    a = _wrap(a, False, bits)
    c0 = b.get((), 0)
    m = min((c & -c).bit_length() - 1 for mono, c in b.items() if mono)
    return 0 <= c0 < (1 << m) and a < (1 << m) and not (a & c0)


def _concrete(op, args):
    base = op.split(".")[0]
    signed, bits = _itype(op)
    a = [_wrap(x, signed, bits) for x in args]
    if base == "bfe":     # bit field extract: len bits from pos, sign-filled for .s types
        pos, n = a[1] & 0xFF, a[2] & 0xFF
        field = (_wrap(a[0], False, bits) >> pos) & ((1 << n) - 1) if n else 0
        return _wrap(field, True, n) if signed and n else field
    if base == "popc":    # the number of set bits (a count of packed predicates)
        return bin(_wrap(a[0], False, bits)).count("1")
    if base in ("shr", "and", "or", "xor", "min", "max", "not"):
        # (shr's amount is a .u32, amounts over the width clamped to it: PTX ISA, shr)
        r = {"shr": lambda: a[0] >> min(args[1] & 0xFFFFFFFF, bits), "and": lambda: a[0] & a[1], "or": lambda: a[0] | a[1],
             "xor": lambda: a[0] ^ a[1], "min": lambda: min(a), "max": lambda: max(a),
             "not": lambda: ~a[0]}[base]()
        return _wrap(r, signed, bits)
    raise Unsupported(f"integer {op}")


def _pred(base, args):
    if UNDEF_PRED in args:
        other = [a for a in args if a != UNDEF_PRED]
        if base == "and" and False in other:
            return False
        if base == "or" and True in other:
            return True
        return UNDEF_PRED
    if base == "not":
        return negate(args[0])
    x, y = args
    if isinstance(x, bool) and isinstance(y, bool):
        return {"and": x and y, "or": x or y, "xor": x != y}[base]
    if base == "and" and (x is False or y is False):
        return False
    if base == "or" and (x is True or y is True):
        return True
    if base in ("and", "or"):
        if isinstance(x, bool):
            return y
        if isinstance(y, bool):
            return x
    out = (base, tuple(sorted((pname(x), pname(y)))))
    payloads.note_composite(out, (x, y))
    return out


# -- negation, pushed into comparisons where the complement is exact --------------------------------

# IEEE complements (PTX setp): lt is false on a NaN, so not lt is "ge or unordered" (geu), and so on
_FCOMPLEMENT = {"eq": "neu", "ne": "equ", "lt": "geu", "le": "gtu", "gt": "leu", "ge": "ltu", "num": "nan"}
_FCOMPLEMENT.update({v: k for k, v in _FCOMPLEMENT.items()})
# unsigned integer orders: not (a < b) is b <= a, not (a <= b) is b < a (cmp_form keeps only lt, le)
_UCOMPLEMENT = {"lt": "le", "le": "lt"}


def _retype(op: str, cmp: str) -> str:
    """'setp.lt.ftz.f32' with its comparison replaced: 'setp.<cmp>.ftz.f32'."""
    parts = op.split(".")
    return ".".join([parts[0], cmp, *parts[2:]])


def negate(p):
    """not p, exactly. A comparison is replaced by its complement (eq <-> ne of a normal-form
    difference; a float order by its unordered complement; an unsigned order by the mirrored
    other order), so that a branch's negation and the opposite comparison meet; a negated
    predicate gives back the text it negated (which names that predicate wherever predicates
    are named: pname(x) is the same text for both). Anything else stays ("not", its text)."""
    if isinstance(p, bool):
        return not p
    if p == UNDEF_PRED:
        return p
    if p.__class__ is tuple:
        tag = p[0]
        if tag == "not":
            return p[1]
        if tag == "cmp0" and p[1] in ("eq", "ne"):          # D == 0 <-> D != 0
            return ("cmp0", "ne" if p[1] == "eq" else "eq", p[2])
        if tag == "cmpm":                                   # D == 0 mod 2^w <-> D != 0 mod 2^w
            return ("cmpm", p[1], "ne" if p[2] == "eq" else "eq", p[3])
        if tag == "fcmp":
            cmp = p[1].split(".")[1]
            if cmp in _FCOMPLEMENT:
                return float_form(_retype(p[1], _FCOMPLEMENT[cmp]), p[2], p[3])
        if tag == "cmp" and p[1].split(".")[1] in _UCOMPLEMENT and p[1].split(".")[-1][0] == "u":
            return ("cmp", _retype(p[1], _UCOMPLEMENT[p[1].split(".")[1]]), p[3], p[2])
    out = ("not", pname(p))
    payloads.note_composite(out, (p,))
    return out


# mirrored float orders (a > b is b < a, NaN or not); the others are symmetric in their operands
_FMIRROR = {"gt": "lt", "ge": "le", "gtu": "ltu", "geu": "leu"}
_FSYMMETRIC = {"eq", "ne", "equ", "neu", "num", "nan"}


def float_form(op, ka, kb):
    """A float comparison of the trees keyed ka, kb in a normal form: greater-than forms
    mirrored into less-than ones with the operands swapped, symmetric ones with their operands
    sorted (both exact for IEEE comparisons, as setp defines them)."""
    cmp = op.split(".")[1]
    if cmp in _FMIRROR:
        return ("fcmp", _retype(op, _FMIRROR[cmp]), kb, ka)
    if cmp in _FSYMMETRIC and kb < ka:
        return ("fcmp", op, kb, ka)
    return ("fcmp", op, ka, kb)


# forms whose exact negation is the one selects are keyed by (after float_form's mirroring)
_NEGATIVE_F = {"neu", "equ", "leu", "ltu", "nan"}


def _negative(g) -> bool:
    """Whether g is the negated half of a pair of complementary forms: ("not", x); an ne of a
    difference (eq kept); an unordered float form (the ordered complement kept); an unsigned le
    (its complement, the mirrored lt, kept)."""
    tag = g[0]
    return (tag == "not" or (tag == "cmp0" and g[1] == "ne") or (tag == "cmpm" and g[2] == "ne")
            or (tag == "fcmp" and g[1].split(".")[1] in _NEGATIVE_F)
            or (tag == "cmp" and g[1].split(".")[1] == "le" and g[1].split(".")[-1][0] == "u"))


def select(g, a, b):
    """The register value "g ? a : b" for a predicate g that is not a constant, keyed by one of
    each pair of complementary forms: select(not x, a, b) = select(x, b, a), so a negative form
    swaps the arms under its negation (exact: negate gives the complement)."""
    try:
        hit = _SELECT.get(g)
    except TypeError:              # not hashable (an integer polynomial read as a predicate)
        hit = _select_form(g, False)
    if hit is None:
        hit = _select_form(g, True)
    name, swap = hit
    return ("select", name, b, a) if swap else ("select", name, a, b)


# predicate -> (the name select keys it by, whether the arms swap): computed once per predicate,
# as one guard selects every register a masked load writes, in every thread. Predicates are
# strings and tuples of strings and ints (a cmpm's width, a node id; never a bool: True and False
# never reach select), so equal predicates have equal texts and the cache cannot confuse two.
_SELECT = {}


def _select_form(g, keep):
    if g.__class__ is tuple and _negative(g):
        hit = (pname(negate(g)), True)
    else:
        hit = (pname(g), False)
    if not keep:
        return hit
    positive = negate(g) if hit[1] else g
    payloads.note_select(hit[0], positive)
    if onehot.EQ:
        onehot.note_name(hit[0], positive)
    if len(_SELECT) > 100_000:
        _SELECT.clear()
    _SELECT[g] = hit
    return hit
