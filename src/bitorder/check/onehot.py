"""One-hot sums: add trees whose terms are all zero but one, keyed as the set of their terms.

Inductor's nll_loss backward sums `where(target == r, -1, 0) * s` over a row's indices r: at most
one term is not a zero. Such a sum gives the same bits in every order (round to nearest; NVIDIA's
NaNs are canonical), so the walk keys it by its terms, as it keys max.f32 trees by their operands:
- A term is a zero, a NaN, or the one term whose predicate holds. A NaN anywhere makes every tree
  the canonical NaN (every tree over two or more terms ends in an add).
- Otherwise, with one term v not a zero, every subtree holding v evaluates to v (v + +-0 = v,
  infinities too), the others to zeros: the sum is v.
- With zeros only, the sum is -0 exactly when every zero is -0, in any tree (+0 + -0 = +0).
- A guarded accumulation `select(p, acc + t, acc)` adds t only where p holds: the sum is the same
  function of the terms p lets in, so the term is kept with its guard.
Exactness needs at most one term outside {+-0, NaN} for every input. A term's condition is an
equality `E + c == 0` (E a polynomial over the host's symbols and the data, c a constant): the
term can be nonzero only where it holds. Terms with the same E and distinct c exclude each other
(`target == r` for the distinct indices r of one row). Nothing else is trusted.

What counts as a term (node keys; the tables are pure functions of the keys, refilled wherever
a node is made, so a memo hit elsewhere never loses them):
- select(eq, x, +0) (x any value), and a mul.f32 of such a term by anything (0 * s is a zero or
  a NaN);
- fma(u, s, acc) with u = select(eq, +-1, +0): the product is exact, so the fma is
  add.rn(acc, mul.rn(u, s)) bit for bit, and is keyed as that add.
"""
from __future__ import annotations

import hashlib
import math

# predicate form (rules / bits) -> (E, c): the form holds only where E + c == 0
EQ: dict = {}
# a select's predicate name (predicates.select's payload) -> its (E, c)
NAMED: dict = {}
# node key -> (E, c): the node is a zero or a NaN unless E + c == 0 (a term)
TERM: dict = {}
# node key -> Sum: the node is the add tree over these terms, in some order
SUM: dict = {}

ZEROS = frozenset({"bits:0", "bits:2147483648"})      # f32 +0 and -0 as operand tokens
_UNIT_BITS = frozenset({0x3F800000, 0xBF800000})             # f32 1.0 and -1.0: exact products
_UNITS = frozenset(f"bits:{b}" for b in _UNIT_BITS)          # ... as float operand tokens
ADDS = frozenset({"add.f32", "add.rn.f32"})
FMAS = frozenset({"fma.rn.f32"})
MULS = frozenset({"mul.f32", "mul.rn.f32"})
HOT = ADDS | FMAS | MULS


def equality(p):
    """The equality form of an integer eq or ne form p (its negation's, for ne: both hold or fail
    with one E + c == 0), or None for any other predicate."""
    if p.__class__ is not tuple or not p:
        return None
    if p[0] == "cmp0" and p[1] in ("eq", "ne"):
        return ("cmp0", "eq", p[2])
    if p[0] == "cmpm":
        return ("cmpm", p[1], "eq", p[3])
    return None


def note_eq(form, a, b) -> None:
    """Record the equality form `a == b` (equality()'s answer; integer polynomials, not both
    constants) as (E, c): over the integers (cmp0: signed indices do not wrap), E = (a - b)'s
    symbolic part divided by its gcd, signed so its largest monomial is positive; modulo 2^w
    (cmpm: untyped or unsigned registers of w bits), E not divided (2^w has no inverse of an even
    gcd)."""
    if form in EQ:
        return
    modulus = 1 << form[1] if form[0] == "cmpm" else 0
    d = dict(a) if isinstance(a, dict) else {(): a}
    for m, c in (b.items() if isinstance(b, dict) else (((), b),)):
        d[m] = d.get(m, 0) - c
    k = d.pop((), 0)
    d = {m: c for m, c in d.items() if c}
    if not d:
        return
    top = max(d)
    sign = 1 if d[top] > 0 else -1
    g = 1
    if not modulus:
        g = math.gcd(*d.values())
        if k % g:
            return
    e = tuple(sorted((m, sign * c // g) for m, c in d.items()))
    c = sign * k // g
    EQ[form] = ((modulus, e), c % modulus if modulus else c)


def note_name(name: str, form) -> None:
    """predicates.select named the predicate `form` `name` (its positive form): a select on it
    learns its equality."""
    hit = EQ.get(form)
    if hit is not None:
        NAMED[name] = hit


def reset() -> None:
    """Forget the node tables (a walk's nodes: dataflow.walk calls this before each walk)."""
    TERM.clear()
    SUM.clear()
    _ADDED.clear()


def note_select(key: str, ka: str, kb: str, payload: str) -> None:
    """A select(payload, ka, kb) node keyed `key`: a term if kb is +0 and payload an equality."""
    if kb == "bits:0" and ka not in ZEROS:
        hit = NAMED.get(payload)
        if hit is not None:
            TERM[key] = (hit, ka in _UNITS)


def note_selp(text: str, p, a, b) -> None:
    """A selp of two integers on predicate p, the integer atom whose polynomial text is `text`:
    read as a float operand (the token "int:" + text) it is a term where it is select(eq, x, +0)
    for a constant x (p an equality, b = 0; or p its negation, a = 0)."""
    eq = equality(p)
    if eq is None or a.__class__ is not int or b.__class__ is not int:
        return
    if eq == p and b == 0 and a:
        x = a
    elif eq != p and a == 0 and b:
        x = b
    else:
        return
    hit = EQ.get(eq)
    if hit is not None:
        TERM["int:" + text] = (hit, x in _UNIT_BITS)


def note_mul(key: str, ka: str, kb: str) -> None:
    """A mul.f32 of a term by anything is a term (0 * s is a zero or a NaN)."""
    hit = TERM.get(ka) or TERM.get(kb)
    if hit is not None:
        TERM[key] = (hit[0], False)


# A Sum: (E, cs, hot, zeros, h). E: the terms' shared equality part; cs: their constants (distinct);
# hot: frozenset of (c, guards, term key); zeros: frozenset of ((guards, token), count); h: the sum
# modulo 2^128 of the hot entries' 128-bit hashes (a multiset hash, kept as sums grow, so a key is
# not a sort of every term). guards: a sorted tuple of predicate names, "!" before a negated one:
# the term is in the sum where all hold.
_MOD = 1 << 128


def _h(entry) -> int:
    """A hot entry's 128-bit hash (blake2b of its text), memoised: a folded loop's entries are the same element by
    element in every configuration of a kernel (storefold.py), so most are hashed once a kernel, not once a walk."""
    if entry[0].__class__ is not int:      # (an entry equal to another but not written alike: hashed by its text)
        return _digest(entry)
    hit = _HASHES.get(entry)
    if hit is None:
        if len(_HASHES) > 300_000:
            _HASHES.clear()
        hit = _HASHES[entry] = _digest(entry)
    return hit


def _digest(entry) -> int:
    return int.from_bytes(hashlib.blake2b(repr(entry).encode(), digest_size=16).digest(), "big")


_HASHES: dict = {}   # a hot entry (c an int, its guards' names, its term's key) -> _h's answer


def _view(k: str):
    """k as a Sum (a term or a zero alone), or None."""
    s = SUM.get(k)
    if s is not None:
        return s
    t = TERM.get(k)
    if t is not None:
        (e, c), _ = t
        return (e, frozenset((c,)), frozenset(((c, (), k),)), frozenset(), _h((c, (), k)))
    if k in ZEROS:
        return (None, frozenset(), frozenset(), frozenset(((((), k), 1),)), 0)
    return None


START = "fold:start"   # the zero token of a folded loop's accumulator at its header (storefold.py)


def start():
    """The Sum a one-hot accumulator holds at a folded loop's header: no term, one START zero."""
    return (None, frozenset(), frozenset(), frozenset({(((), START), 1)}), 0)


def open_start(key: str) -> None:
    """SELF (node key `key`) read as start()'s sum while a constant-trip loop is walked for its one-hot fold
    (loops.fold): add's memo forgets the sums made before."""
    SUM[key] = start()
    _ADDED.clear()


def close_start(key: str) -> None:
    """SELF the leaf it was again (open_start undone): add's memo forgets the sums made of it."""
    del SUM[key]
    _ADDED.clear()


def folded(init: str, e, entries, zeros):
    """The key of the sum `init` (a key) plus the terms `entries` [(c, guards, term key)] of equality part e
    and the zeros {(guards, token): count} (storefold.py: every element's term of a folded loop), or None
    where that is not a one-hot sum."""
    base = _view(init)
    if base is None or entries and base[0] is not None and base[0] != e:
        return None
    cs = frozenset(c for c, _, _ in entries)
    if len(cs) != len(entries) or not cs.isdisjoint(base[1]):
        return None
    z = _zeros(base[3])
    for g, n in zeros.items():
        z[g] = z.get(g, 0) + n
    if not entries:
        e = base[0]
    return _key((e, base[1] | cs, base[2] | frozenset(entries), frozenset(z.items()),
                 (base[4] + sum(_h(x) for x in entries)) % _MOD))


def _zeros(z) -> dict:
    out: dict = {}
    for g, n in z:
        out[g] = out.get(g, 0) + n
    return out


def _key(s) -> str:
    """The canonical key of a Sum: a hash of its terms' multiset hash (with guards) and its zeros.
    Unguarded +0s count once: with one of them in, the sum is (the rest) + 0 however many there are."""
    e, _, hot, zeros, h = s
    if any(g == ((), "bits:0") and n > 1 for g, n in zeros):
        zeros = frozenset((g, 1 if g == ((), "bits:0") else n) for g, n in zeros)
        s = (e, s[1], hot, zeros, h)
    text = f"onehot({e!r}|{len(hot)}:{h:x}|{sorted(zeros)!r})"
    key = hashlib.blake2b(text.encode(), digest_size=12).hexdigest()
    SUM[key] = s
    return key


def add(ka: str, kb: str):
    """The key of add.f32(ka, kb) as a one-hot sum, or None (not one: key it as an add). A sum made is memoised for
    the walk (both lanes of a butterfly step add the same two sums; _key registered it in SUM the first time)."""
    pair = (ka, kb) if ka <= kb else (kb, ka)
    hit = _ADDED.get(pair)
    if hit is not None:
        return hit
    out = _add(ka, kb)
    if out is not None:
        _ADDED[pair] = out
    return out


_ADDED: dict = {}   # (two keys, sorted) -> add's sum, this walk (reset empties it with SUM)


def _add(ka: str, kb: str):
    a, b = _view(ka), _view(kb)
    if a is None or b is None or (a[0] is None and b[0] is None):
        return None
    if a[0] is not None and b[0] is not None and (a[0] != b[0] or not a[1].isdisjoint(b[1])):
        return None          # two terms could both be nonzero
    zeros = _zeros(a[3])
    for g, n in b[3]:
        zeros[g] = zeros.get(g, 0) + n
    return _key((a[0] if a[0] is not None else b[0], a[1] | b[1], a[2] | b[2], frozenset(zeros.items()),
                 (a[4] + b[4]) % _MOD))


def key(op: str, kids):
    """The key of add or fma `op` over the keys `kids` as a one-hot sum, or None: key it as usual
    (a mul keeps its usual key: symbolic.make notes it, note_mul)."""
    if op in ADDS and len(kids) == 2:
        return add(kids[0], kids[1])
    if op in FMAS and len(kids) == 3:
        return fma(kids[0], kids[1], kids[2])
    return None


def fma(ka: str, kb: str, kc: str):
    """The key of fma.rn.f32(ka, kb, kc) as a one-hot sum, or None: where ka or kb is a unit term
    (select(eq, +-1, +0)), the product is exact and the fma is add.rn(kc, mul.rn(ka, kb))."""
    ta, tb = TERM.get(ka), TERM.get(kb)
    unit = ta if ta is not None and ta[1] else tb if tb is not None and tb[1] else None
    if unit is None or kc not in SUM and kc not in TERM and kc not in ZEROS:
        return None
    from .symbolic import _hash   # (symbolic imports this module)
    product = _hash("mul.rn.f32", sorted((ka, kb)), "")   # the key make gives that mul
    TERM[product] = (unit[0], False)
    return add(kc, product)


def select(ka: str, kb: str, payload: str):
    """The key of select(payload, ka, kb) (ka where the predicate named payload holds) as a one-hot
    sum, or None: an accumulation that adds some terms only where the predicate holds."""
    a, b = SUM.get(ka), SUM.get(kb)
    if a is None and b is None:
        return None
    if ka == kb:          # select(p, x, x) is x (a lane the turn's mask left out)
        return ka
    a, b = _view(ka), _view(kb)
    if a is None or b is None:
        return None
    if _within(b, a):
        return _guarded(b, a, payload)
    if _within(a, b):
        return _guarded(a, b, "!" + payload)
    return None


def _within(small, big) -> bool:
    if not small[2] <= big[2] or (small[0] is not None and small[0] != big[0]):
        return False
    zb = _zeros(big[3])
    return all(zb.get(g, 0) >= n for g, n in small[3])


def _guarded(base, more, guard: str):
    """base plus the terms of `more` that base lacks, each added only where guard holds."""
    extra = more[2] - base[2]
    zeros = _zeros(base[3])
    zextra = _zeros(more[3])
    for g, n in zeros.items():
        zextra[g] = zextra[g] - n
    if not extra and not any(zextra.values()):
        return None
    hot = set(base[2])
    h = base[4]
    for c, g, k in extra:
        entry = (c, tuple(sorted((*g, guard))), k)
        hot.add(entry)
        h += _h(entry)
    for (g, tok), n in zextra.items():
        if n:
            gg = (tuple(sorted((*g, guard))), tok)
            zeros[gg] = zeros.get(gg, 0) + n
    return _key((more[0], more[1], frozenset(hot), frozenset(zeros.items()), h % _MOD))
