"""Integers the walk (dataflow.py) knows bit by bit, and the normal form of integer comparisons.

LLVM packs predicates into integers: `selp.b16 %rs, 1, 0, %p` (or -1, 0) puts p in bits of a
register, shl/or/and assemble a bitmask of many predicates, and shr/and/setp.ne ... 0 take one
back out. A polynomial cannot follow that (and, or and shr are not ring operations), so such a
register is held as its bits: each bit a constant or a predicate, computed exactly by the bitwise
operations PTX defines (and, or, xor, not, shl and shr by a constant, cvt between integer
widths), and a comparison eq/ne of two such registers is the predicate "some bit differs". An
operation this module does not model on such a register (an add, a load address, a comparison
of order) sees an ordinary atom whose name is the canonical text of its bits (equal names,
equal bits), so it stays as opaque as before.
"""
from __future__ import annotations

from . import onehot
from .rules import _cvt_types, _linear_cmp
from .poly import atom, padd, pkey, short, UNDEF, UNDEF_PRED
from .symbolic import _itype
from .predicates import _pred, negate

_INT_TYPES = ("b", "u", "s")
# Memos shared by every walk, of pure functions of their keys (a register's bits determine its name
# and the name its bits, so a name stands for its bits in a key):
_MADE = {}       # (width, bits, their types) -> Bits._make's answer (an int, an atom name, None: undefined)
_INT_BITS = {}   # (constant, width) -> its bits, lowest first
_INTEGER = {}    # (opcode, base, constants and names...) -> (Bits.integer's answer, its name's table entry)
_EQUAL = {}      # (eq or ne, width, two constants or names) -> Bits.equal's answer
_SELP_BITS = {}  # (opcode, predicate's class, predicate, two constants) -> (Bits.selp's answer, table entry)


def _xor(x, y):
    """x != y for predicates, constants folded exactly."""
    if isinstance(x, bool) and isinstance(y, bool):
        return x != y
    if x == y:                     # one predicate (equal forms are the same truth): never differs
        return False
    if isinstance(y, bool):
        x, y = y, x
    if isinstance(x, bool):
        return negate(y) if x else y
    return _pred("xor", [x, y])


class Bits:
    """The registers of one walk known bit by bit: atom name -> (width, bits, lowest first)."""

    def __init__(self):
        self.table = {}

    def make(self, width, bits):
        """A register of `width` bits: a constant (unsigned) when every bit is one, the undefined
        integer when a bit is, else the atom named by its bits (run-length text; hashed if long)."""
        bits = tuple(bits)
        key = (width, bits, tuple(map(type, bits)))   # (the types: True and 1 are equal keys)
        try:
            hit = _MADE.get(key)
        except TypeError:              # a bit that is not hashable: named without the memo
            hit = self._make(width, bits)
        else:
            if hit is None:
                hit = self._make(width, bits)
                if len(_MADE) > 100_000:
                    _MADE.clear()
                _MADE[key] = hit
        if hit.__class__ is str:       # a name: this walk's table learns it, as _make records it
            self.table[hit] = (width, bits)
            return {(hit,): 1}
        return hit if hit.__class__ is int else atom(UNDEF)

    def _make(self, width, bits):
        """make's answer as memoised: an int, the name of the atom (put in the table), or None
        for the undefined integer."""
        if all(b.__class__ is bool for b in bits):
            return sum(1 << i for i, b in enumerate(bits) if b)
        if any(b == UNDEF_PRED for b in bits):
            return None
        runs, prev, n = [], None, 0
        for b in bits:
            tok = "1" if b is True else "0" if b is False else short(str(b))
            if tok == prev:
                n += 1
                continue
            if prev is not None:
                runs.append(f"{prev}*{n}" if n > 1 else prev)
            prev, n = tok, 1
        runs.append(f"{prev}*{n}" if n > 1 else prev)
        name = short(f"bits{width}[{';'.join(runs)}]")
        self.table[name] = (width, bits)
        return name

    def of(self, v, width):
        """The bits of v as a `width`-bit register, or None: a constant (two's complement, as the
        register holds it: the walk's ring arithmetic is exact modulo 2^width) or a register
        known bit by bit at exactly that width."""
        if v.__class__ is int:
            hit = _INT_BITS.get((v, width))
            if hit is None:
                if len(_INT_BITS) > 100_000:
                    _INT_BITS.clear()
                hit = _INT_BITS[(v, width)] = tuple(bool((v >> i) & 1) for i in range(width))
            return hit
        known = self.known(v)
        return known[1] if known is not None and known[0] == width else None

    def known(self, v):
        """(width, bits) of a value held bit by bit, else None."""
        if v.__class__ is dict and len(v) == 1:
            (m, c), = v.items()
            if c == 1 and len(m) == 1:
                return self.table.get(m[0])
        return None

    def selp(self, op, c, a, b):
        """_selp memoised in _SELP_BITS by (op, c, a, b) (a pure function of them, as integer's
        memo is; the table entry of the register it names is kept with it for walks that hit)."""
        key = (op, c.__class__, c, a, b)
        try:
            hash(key)
        except TypeError:              # a predicate that is not hashable: not memoised
            return self._selp(op, c, a, b)
        return self._memoised(_SELP_BITS, key, self._selp, op, c, a, b)

    def _memoised(self, memo, key, compute, *args):
        """compute(*args) through memo[key] (a pure function of the key): kept with the table entry
        of the register a dict answer names, which a walk that hits gets back."""
        hit = memo.get(key)
        if hit is None:
            r = compute(*args)
            hit = (r, self.table.get(next(iter(r))[0]) if r.__class__ is dict else None)
            if len(memo) > 100_000:
                memo.clear()
            memo[key] = hit
        r, entry = hit
        if r.__class__ is dict:
            if entry is not None:
                self.table[next(iter(r))[0]] = entry
            return dict(r)
        return r

    def _selp(self, op, c, a, b):
        """selp.<int> of two constants on predicate c: bit i is constant where a and b agree,
        c where a has it set, not c where b has (exact: the register is a's bits or b's)."""
        signed, width = _itype(op)
        ba, bb = self.of(a, width), self.of(b, width)
        return self.make(width, [x if x == y else (c if x else negate(c)) for x, y in zip(ba, bb)])

    def _tokens(self, args):
        """The memo tokens of integer registers (a constant, or the name of a register held bit by
        bit: its name stands for its bits), or None if one is neither."""
        tokens = []
        for a in args:
            if a.__class__ is int:
                tokens.append(a)
            elif self.known(a) is not None:
                tokens.append(next(iter(a))[0])
            else:
                return None
        return tokens

    def integer(self, op, base, args):
        """A bitwise operation on registers at least one of which is known bit by bit, or None
        where this module does not model it (the caller's rules apply). Memoised in _INTEGER
        over constants and registers known bit by bit (a pure function of their bits)."""
        tokens = self._tokens(args)
        if tokens is None:
            return self._integer(op, base, args)
        return self._memoised(_INTEGER, (op, base, *tokens), self._integer, op, base, args)

    def _integer(self, op, base, args):
        """integer's answer, computed."""
        if not any(self.known(a) is not None for a in args):
            return None
        if base == "cvt":
            return self._cvt(op, args[0])
        signed, width = _itype(op)
        if base in ("shl", "shr"):
            x, k = self.of(args[0], width), args[1]
            if x is None or k.__class__ is not int:
                return None
            k = min(k & 0xFFFFFFFF, width)        # PTX clamps shift amounts to the register width
            if base == "shl":
                return self.make(width, [False] * k + list(x[:width - k]))
            fill = x[-1] if signed else False      # shr.s fills with the sign bit, .u and .b with 0
            return self.make(width, list(x[k:]) + [fill] * k)
        ops = [self.of(a, width) for a in args]
        if any(o is None for o in ops):
            return None
        if base == "not":
            return self.make(width, [negate(x) for x in ops[0]])
        if base in ("and", "or") and len(ops) == 2:
            return self.make(width, [_pred(base, [x, y]) for x, y in zip(*ops)])
        if base == "xor" and len(ops) == 2:
            return self.make(width, [_xor(x, y) for x, y in zip(*ops)])
        return None

    def _cvt(self, op, v):
        """cvt between integer types (no saturation): the low bits kept, a widening filled with
        the source's sign bit when the source type is signed, else with zeros (PTX cvt)."""
        if ".sat" in op:
            return None
        types = _cvt_types(op)
        if len(types) != 2:
            return None
        dst, src = types
        known = self.known(v)
        if known is None or known[0] != int(src[1:]):
            return None
        bits, wd = known[1], int(dst[1:])
        fill = bits[-1] if src[0] == "s" else False
        return self.make(wd, list(bits[:wd]) + [fill] * max(0, wd - len(bits)))

    def equal(self, cmp, width, a, b):
        """eq/ne of two registers, at least one known bit by bit, as the predicate "some bit
        differs" (or its negation); None if either is not known at `width` bits. Memoised in
        _EQUAL over constants and registers known bit by bit."""
        tokens = self._tokens((a, b))
        if tokens is None:
            return self._equal(cmp, width, a, b)
        key = (cmp, width, *tokens)
        hit = _EQUAL.get(key, _EQUAL)
        if hit is _EQUAL:
            hit = self._equal(cmp, width, a, b)
            if len(_EQUAL) > 100_000:
                _EQUAL.clear()
            _EQUAL[key] = hit
        return hit

    def _equal(self, cmp, width, a, b):
        """equal's answer, computed."""
        ba, bb = self.of(a, width), self.of(b, width)
        if ba is None or bb is None:
            return None
        differs = False
        for x, y in zip(ba, bb):
            differs = _pred("or", [differs, _xor(x, y)])
        return differs if cmp == "ne" else negate(differs)


def int_form(op, cmp, a, b):
    """_int_form memoised by the opcode and the two values (an int, or a polynomial's items in
    order: equal tuples are equal polynomials); cmp is op's comparison. A pure function of them:
    the comparisons of a num_warps twin's walk (thresholds on the same trees and indices) recur."""
    ca, cb = a.__class__, b.__class__
    if (ca is not int and ca is not dict) or (cb is not int and cb is not dict):
        return _int_form(op, cmp, a, b)        # (a bool: True and 1 are one key, not one text)
    key = (op, a if ca is int else tuple(a.items()), b if cb is int else tuple(b.items()))
    hit = _FORM.get(key)
    if hit is None:
        hit = _int_form(op, cmp, a, b)
        eq = onehot.equality(hit)
        if eq is not None:               # an equality (or its negation): onehot learns it
            onehot.note_eq(eq, a, b)
        if len(_FORM) > 100_000:
            _FORM.clear()
        _FORM[key] = hit
    return hit


_FORM = {}   # (opcode, two values' keys) -> _int_form's answer


def _int_form(op, cmp, a, b):
    """An integer comparison of two polynomials (not both constants) in a normal form.
    Signed ones: _linear_cmp (exact over the integers: indices do not wrap). eq/ne of unsigned
    or untyped registers: whether D = a - b is 0 modulo 2^width (ring arithmetic is exact
    modulo 2^width), D keyed by the one of D and -D (both vanish together) whose largest
    monomial has a positive coefficient, the width kept. Unsigned orders: gt, ge mirrored into lt, le with the operands swapped."""
    signed, width = _itype(op)
    if signed and cmp in ("lt", "le", "gt", "ge", "eq", "ne"):
        return _linear_cmp(cmp, a, b)
    if cmp in ("eq", "ne"):
        if a.__class__ is int:
            a, b = b, a                            # eq/ne are symmetric: the polynomial first
        if b.__class__ is int:                     # the common case, against a constant: D = a - b
            d = dict(a)
            k = d.get((), 0) - b
            if k:
                d[()] = k
            else:
                d.pop((), None)
        else:
            d = padd(a, b, -1)
            if d.__class__ is int:                 # the symbols cancel: a constant difference
                return (d % (1 << width) == 0) == (cmp == "eq")
        if d[max(d)] < 0:       # one of D, -D: the largest monomial (never the constant's ()) positive
            d = {m: -c for m, c in d.items()}
        return ("cmpm", width, cmp, pkey(d))
    mirror = {"gt": "lt", "ge": "le", "hi": "lt", "hs": "le", "lo": "lt", "ls": "le"}
    if cmp in mirror and not signed:
        pa, pb = pkey(a), pkey(b)
        if cmp in ("gt", "ge", "hi", "hs"):
            pa, pb = pb, pa
        return ("cmp", op.replace(f".{cmp}.", f".{mirror[cmp]}.", 1), pa, pb)
    return ("cmp", op, pkey(a), pkey(b))


_CTAID_X = ("ctaid_x",)
# integer orders as (strict, less than): PTX's signed lt le gt ge and unsigned lo ls hi hs
_ORDERS = {"lt": (True, True), "le": (False, True), "gt": (True, False), "ge": (False, False),
           "lo": (True, True), "ls": (False, True), "hi": (True, False), "hs": (False, False)}


def grid_decides(op, cmp, a, b, grid_x: int):
    """The value of the integer comparison `a cmp b` (op's setp) where a and b are linear in
    %ctaid.x alone and the launch grid's x extent is grid_x (so 0 <= ctaid.x < grid_x), if it is
    the same for every block; else None (linear_decides, the blocks' range)."""
    r = linear_decides(op, cmp, a, b, _CTAID_X, grid_x)
    return r if r.__class__ is bool else None


LOOP_T = ("loop:T",)   # a folded loop's turn (loops.LOOP_T is its name)


def turn_decides(op, cmp, a, b, turns: int):
    """The integer comparison `a cmp b` where a and b are linear in a folded loop's turn T alone and T
    runs over 0 .. turns - 1 (a constant trip count; loops.py): linear_decides over the turns, so that
    two masks equal on every turn get one predicate whatever arithmetic made them."""
    return linear_decides(op, cmp, a, b, LOOP_T, turns)


def range_decides(op, cmp, a, b, lo: int, n: int):
    """The integer comparison `a cmp b` where a and b are linear in T alone and T runs over lo .. lo + n - 1
    (storefold.py: an element over the elements one store lane writes): True or False where every value
    agrees (linear_decides over T - lo), else None, never a predicate (its threshold would be the lane's)."""
    known = linear_decides(op, cmp, _shifted(a, lo), _shifted(b, lo), LOOP_T, n)
    return known if known.__class__ is bool else None


def _shifted(p, lo):
    """p(T + lo): its constant term moved by T's coefficient times lo."""
    if p.__class__ is int or not lo or LOOP_T not in p:
        return p
    return padd(p, p[LOOP_T] * lo)


def nonneg_decides(op, cmp, a, b, syms) -> bool | None:
    """The signed integer order `a cmp b` (op's setp: lt, le, gt or ge) where a - b is a constant k plus
    multiples of symbols each known to be at least 0 (syms: their monomials), all of one sign: d = a - b is then
    at least k (every multiple non-negative) or at most k (every one non-positive), which decides the order where
    k is on the right side of 0; else None. Exact over the integers (indices do not wrap, as _linear_cmp has it).
    The walk of a program past a launch's end (signature.stores_past_end) gives it its one such symbol."""
    signed, _ = _itype(op)
    order = _ORDERS.get(cmp)
    if not signed or order is None or cmp not in ("lt", "le", "gt", "ge"):
        return None
    d = padd(a, b, -1)
    if d.__class__ is int:
        return None
    k = d.get((), 0)
    coefs = [c for m, c in d.items() if m]
    if any(m and m not in syms for m in d):
        return None
    strict, less = order
    if all(c >= 0 for c in coefs):      # d >= k
        if less:                        # d < 0 / d <= 0: false where k is at least 0 (above 0)
            return False if (k >= 0 if strict else k > 0) else None
        return True if (k > 0 if strict else k >= 0) else None
    if all(c <= 0 for c in coefs):      # d <= k
        if less:
            return True if (k < 0 if strict else k <= 0) else None
        return False if (k <= 0 if strict else k < 0) else None
    return None


def linear_decides(op, cmp, a, b, x, n: int):
    """The integer comparison `a cmp b` (op's setp) where a and b are linear in the one symbol x (a
    monomial) alone and 0 <= x < n: True or False where every x agrees, else the same comparison of x
    against the value where it changes (x < k, its negation, x == k, its negation: one predicate for
    every truth over the range); None where a or b reads another symbol or leaves op's type. Exact:
    both sides stay inside op's type at both ends of the range (linear, so in between too), and a
    linear difference is monotone there (lt, le, gt, ge) or vanishes at most once (eq, ne)."""
    if not (isinstance(a, dict) and x in a or isinstance(b, dict) and x in b):
        return None
    signed, width = _itype(op)
    lo, hi = (-(1 << (width - 1)), 1 << (width - 1)) if signed else (0, 1 << width)
    lines = []
    for p in (a, b):
        if p.__class__ is int:
            lines.append((p, 0))
            continue
        if any(m and m != x for m in p):
            return None
        lines.append((p.get((), 0), p.get(x, 0)))
    for c0, c1 in lines:
        if not (lo <= c0 < hi and lo <= c0 + c1 * (n - 1) < hi):
            return None
    d0, s = lines[0][0] - lines[1][0], lines[0][1] - lines[1][1]   # a - b = d0 + s x
    t = {x: 1}
    if cmp in ("eq", "ne"):
        if s == 0 or -d0 % s or not 0 <= -d0 // s < n:
            return (d0 == 0) == (cmp == "eq") if s == 0 else cmp == "ne"
        k = -d0 // s
        if n == 1:                # equal at the one value x takes
            return cmp == "eq"
        # (at the first or the last value, the prefix or suffix its order comparison would give)
        at = (_linear_cmp("lt", t, 1) if k == 0 else negate(_linear_cmp("lt", t, k)) if k == n - 1
              else _linear_cmp("eq", t, k))
        return at if cmp == "eq" else negate(at)
    order = _ORDERS.get(cmp)
    if order is None:
        return None
    strict, less = order
    if not less:                  # a > b is b < a: d negated
        d0, s = -d0, -s
    if s < 0:                     # d0 + sx (<, <=) 0 is the complement of d0 + sx (>=, >) 0 = (-d0) - sx (<=, <) 0
        d0, s, strict, flip = -d0, -s, not strict, True
    else:
        flip = False
    if s == 0:
        holds = d0 < 0 if strict else d0 <= 0
        return holds != flip
    k = -(d0 // s) if strict else (-d0) // s + 1      # d0 + sx < 0 (<= 0) <=> x < k
    if k <= 0 or k >= n:
        return (k >= n) != flip
    prefix = _linear_cmp("lt", t, k)
    return negate(prefix) if flip else prefix


def turn_bound(pred):
    """k where pred is turn_decides' "T < k" (k >= 1), else None."""
    if pred.__class__ is not tuple or len(pred) != 3 or pred[:2] != ("cmp0", "lt"):
        return None
    head, _, tail = pred[2].partition("*1+")
    try:
        k = -int(head)
    except ValueError:
        return None
    return k if tail == "1*loop:T" and k >= 1 and _linear_cmp("lt", {LOOP_T: 1}, k) == pred else None

