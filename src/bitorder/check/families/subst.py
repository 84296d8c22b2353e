"""Thread-bit substitution in families (docs/check-families.md, steps 3 and 4): a family F with each thread bit t_j
replaced by a constant or by another thread bit, what a lane exchange reads. A butterfly over bit j combines
F[t_j := 0] and F[t_j := 1]; a shared-memory read of the word thread w(t) wrote reads V[w(t)], where each bit of w(t)
is a constant or a bit of t.

A substitution `sigma` is a tuple over the thread bits: sigma[j] >= 0 puts t_{sigma[j]} for t_j, -1 puts 0, -2 puts 1,
and a string puts that bound variable (a Red's: only into integer families and comparisons; a mask or a boolean
function that reads t_j then falls back).
Selects whose predicate becomes a constant collapse into their arm (the value a thread holds there)."""
from __future__ import annotations

import functools

from ..poly import _norm
from ..symbolic import Unsupported
from . import floats as ff
from . import integers as fi
from . import predicates as fp


def _image(sigma: tuple, t: int) -> int:
    """The thread whose bits sigma reads in thread t (sigma(t))."""
    w = 0
    for j, s in enumerate(sigma):
        if s == -2 or s >= 0 and t >> s & 1:
            w |= 1 << j
    return w


@functools.lru_cache(maxsize=65536)
def _atom(a: str, sigma: tuple):
    """A boolean thread atom under sigma: 0, 1 or a boolean atom (its table over the bits it now reads)."""
    if a.startswith(fi.TBIT):     # (the common case: one thread bit)
        s = sigma[int(a[len(fi.TBIT):])]
        return s if s.__class__ is str else 0 if s == -1 else 1 if s == -2 else f"{fi.TBIT}{s}"
    support, table = fi._table(a)
    if any(sigma[j].__class__ is str for j in support):
        raise Unsupported("a boolean function of a lane bit a reduction binds")
    new = tuple(sorted({sigma[j] for j in support if sigma[j] >= 0}))
    out = 0
    for i in range(1 << len(new)):
        t = sum(1 << q for k, q in enumerate(new) if i >> k & 1)
        old = sum(1 << k for k, j in enumerate(support) if sigma[j] == -2 or sigma[j] >= 0 and t >> sigma[j] & 1)
        out |= (table >> old & 1) << i
    return fi._boolean(new, out)


@functools.lru_cache(maxsize=65536)
def _mask_bits(bits: int, sigma: tuple, n: int) -> int:
    """A mask's bits under sigma: bit t is bit sigma(t) of `bits`. A bit put to a constant (a butterfly's halves,
    a copy of every element) is two shifts of the big integer; anything else a loop over the threads."""
    moved = [j for j, s in enumerate(sigma) if s != j]
    if any(sigma[j].__class__ is str for j in moved):
        if any(mask_reads(bits, n) >> j & 1 for j in moved if sigma[j].__class__ is str):
            raise Unsupported("a mask of a lane bit a reduction binds")
        sigma = tuple(j if s.__class__ is str else s for j, s in enumerate(sigma))
        moved = [j for j, s in enumerate(sigma) if s != j]
    if moved and all(sigma[j] < 0 for j in moved):   # bits put to constants: two shifts each
        for j in moved:
            one = sigma[j] == -2
            kept = bits & fi.half(n, j, one)        # the threads whose bit j is the constant
            bits = kept | (kept >> (1 << j)) if one else kept | (kept << (1 << j))
        return bits
    # (bit w of `bits` as character w of its reversed binary text: indexing a string, not shifting a big integer)
    text = format(bits, f"0{n}b")[::-1]
    return int("".join([text[w] for w in _images(sigma, n)])[::-1], 2)


@functools.lru_cache(maxsize=4096)
def _images(sigma: tuple, n: int) -> tuple:
    """(sigma(t) for t < n)."""
    return tuple(_image(sigma, t) for t in range(n))


@functools.lru_cache(maxsize=4096)
def _moved(sigma: tuple) -> int:
    """The thread bits sigma moves (puts anything but themselves), as a bit mask."""
    return sum(1 << j for j, s in enumerate(sigma) if s != j)


@functools.lru_cache(maxsize=65536)
def mask_reads(bits: int, n: int) -> int:
    """The thread bits a mask of n threads reads (it changes where bit j is put to 0), as a bit mask."""
    k = n.bit_length() - 1
    return sum(1 << j for j in range(k) if _mask_bits(bits, tuple(-1 if q == j else q for q in range(k)), n) != bits)


def integer(v, sigma: tuple):
    """An integer family under sigma (a product of boolean atoms becomes one atom, their and)."""
    if v.__class__ is int:
        return v
    out: dict = {}
    for m, c in v.items():
        key = _monomial(m, sigma)
        if key is not None:
            out[key] = out.get(key, 0) + c
    return _norm(out)


@functools.lru_cache(maxsize=65536)
def _monomial(m: tuple, sigma: tuple):
    """Monomial m under sigma (its boolean atoms' and one atom), or None where that is 0: an address's terms recur
    in every leaf, so each is worked out once per substitution."""
    rest: list = []
    bit: object = 1      # (1, 0, a thread bit's atom or their and: an int or a str)
    for a in m:
        if a.startswith(fi.TID):
            x = _atom(a, sigma)
            if x.__class__ is str and not x.startswith(fi.TID):
                rest.append(x)             # (a bound variable)
            else:
                bit = fi._bool_op("and", bit, x) if bit != 1 else x
        else:
            rest.append(a)
    if bit == 0:
        return None
    return tuple(sorted(rest + ([] if bit == 1 else [bit])))


def predicate(p, sigma: tuple, n: int, memo: dict):
    """A predicate family under sigma (a float comparison's operands as family substitutes them)."""
    if p.__class__ is bool:
        return p
    if p.__class__ is fp.Mask:
        return fp._mask(_mask_bits(p.bits, sigma, n), n)
    if p.how == "cmp":
        a, b = (integer(x, sigma) for x in p.args)
        return fp.compare(p.op, a, b, n)
    if p.how in ("fcmp", "tcmp"):
        return fp.Each(p.how, p.op, tuple(family(x, sigma, n, memo) for x in p.args))
    return fp.combine(p.op, [predicate(x, sigma, n, memo) for x in p.args], n)


def reads(f, n: int, memo: dict) -> int:
    """The thread bits family f reads, as a bit mask (memo: as family's)."""
    cls = f.__class__
    if cls is bool or f is ff.UNDEF:
        return 0
    if cls is int or cls is dict:
        return 0 if cls is int else _int_reads(f)
    key = id(f)          # (an int: family's keys in a shared memo are tuples)
    hit = memo.get(key)
    if hit is not None and hit[0] is f:
        return hit[1]
    if cls is fp.Mask:
        out = mask_reads(f.bits, n)
    else:
        kids = (f.args if cls is fp.Each or cls is ff.Bits else (f.address,) if cls is ff.Leaf else
                f.kids if cls is ff.Node else
                (f.pred, f.a, f.b) if cls is ff.Select else f.parts if cls is ff.Pack else (f.of,))   # (Part, Red)
        out = 0
        for k in kids:
            out |= reads(k, n, memo)
        if cls is ff.Red and f.var.__class__ is int:
            out &= ~(1 << f.var)             # (the bit it binds)
    memo[key] = (f, out)
    return out


def _int_reads(v: dict) -> int:
    """The thread bits an integer family reads, as a bit mask (memoised by its monomials: leaf addresses recur)."""
    key = tuple(v)
    out = _INT_READS.get(key)
    if out is None:
        out = 0
        for m in key:
            for a in m:
                if a.startswith(fi.TID):
                    for j in fi._table(a)[0]:
                        out |= 1 << j
        if len(_INT_READS) > 65536:
            _INT_READS.clear()
        _INT_READS[key] = out
    return out


_INT_READS: dict = {}


def halves(f, j: int, sigma: tuple, n: int, memo: dict) -> tuple:
    """(f with t_j put to 0, f with t_j put to 1), its other bits under sigma: what a butterfly over lane bit j
    combines, and what a shuffle over it moves."""
    return tuple(family(f, tuple(c if q == j else s for q, s in enumerate(sigma)), n, memo) for c in (-1, -2))


def family(f, sigma: tuple, n: int, memo: dict):
    """Any family under sigma (memo: {(id(f), sigma): (f, result)}, for one walk). A family that reads no bit
    sigma moves is itself."""
    cls = f.__class__
    if cls is int or cls is bool or f is ff.UNDEF:     # (read no thread bit)
        return f
    key = (id(f), sigma)
    hit = memo.get(key)
    if hit is not None and hit[0] is f:     # (an id is f's only while f lives: the memo keeps f alive)
        return hit[1]
    if not reads(f, n, memo) & _moved(sigma):
        memo[key] = (f, f)
        return f
    if cls is int or cls is dict:
        out = integer(f, sigma)
    elif cls in (bool, fp.Mask, fp.Each):
        out = predicate(f, sigma, n, memo)
    elif cls is ff.Leaf:
        out = ff.Leaf(integer(f.address, sigma), f.width)
    elif cls is ff.Node:
        out = ff.Node(f.op, tuple(family(k, sigma, n, memo) for k in f.kids))
    elif cls is ff.Select:
        p = predicate(f.pred, sigma, n, memo)
        out = family(f.a if p else f.b, sigma, n, memo) if p.__class__ is bool else \
            ff.Select(p, family(f.a, sigma, n, memo), family(f.b, sigma, n, memo))
    elif cls is ff.Pack:
        out = ff.Pack(tuple(family(k, sigma, n, memo) for k in f.parts), f.pw)
    elif cls is ff.Part:
        out = ff.Part(family(f.of, sigma, n, memo), f.i, f.n, f.width)
    elif cls is ff.Wide:
        out = ff.Wide(family(f.of, sigma, n, memo))
    elif cls is ff.Bits:
        out = ff.Bits(f.op, tuple(family(a, sigma, n, memo) for a in f.args))
    elif cls is ff.Red and f.var.__class__ is int:
        # (its bound lane bit renamed to a bound variable first: sigma may put another bit where it was)
        var = f"bv:r{id(f)}"
        inner = tuple(var if q == f.var else s for q, s in enumerate(sigma))
        try:
            out = ff.Red(f.op, family(f.of, inner, n, memo), var)
        except Unsupported:
            # a mask reads the bit it binds (no bound variable can stand in a mask): its two halves, op{F[t_j:=0],
            # F[t_j:=1]}, as a node of the op (their key, sorted, is the Red's: floats.key_at)
            out = ff.Node(f.op, halves(f.of, f.var, sigma, n, memo))
    elif cls is ff.Red:
        out = ff.Red(f.op, family(f.of, sigma, n, memo), f.var)
    elif f is ff.UNDEF:
        out = f
    else:
        raise Unsupported(f"no substitution in a {cls.__name__}")
    memo[key] = (f, out)
    return out
