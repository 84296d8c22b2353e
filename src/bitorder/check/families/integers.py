"""Integers over one symbolic thread: %tid.x as the sum of 2^j t_j over bit symbols t_j, each 0 or 1
(docs/check-families.md, step 1; the paper's address rules, section 6.1).

A register then holds one polynomial (poly.py's form) for its value in every thread. Ring operations stay exact as
the concrete walk's are (check/integers.py, index arithmetic assumed not to wrap). The bitwise rules are new: the
concrete walk never needs them, since it knows every thread's index. They read a value's *layout*, the bits each
term may set:
- a *boolean atom* (a thread bit, or a 0/1 function of thread bits named by its support and truth table) times c
  sets the bits of c;
- a non-negative constant sets its own bits;
- a symbol known to be non-negative (a block index or the grid's extent) times 2^q * odd may set any bit from q up
  (its *floor*).

A value is laid out when its boolean terms and its constant share no bit and all lie below every symbol's floor.
Its terms then add without carries, so each bit position holds 0, 1 or one boolean atom. Then:
- `shr` by k (k at most the floor) drops what lies below bit k and renumbers the rest;
- `and`, `or` and `xor` of two laid-out values are taken position by position, each position's boolean atoms
  combined into a new one (a swizzle's xor of two lane fields stays exact), where only one of them has symbol terms
  and the other sets no bit from their floor up;
- an operation on values that read no symbol and at most three thread bits is tabulated: the unique polynomial in
  those bits that takes its values.

A value that reads no symbol is a constant in every thread, which the concrete walk wraps (cvt, the operands of .wide
and 16-bit ops). So does its family, where every thread wraps alike.

Anything else is an opaque atom named by the operation and its operands: it equals only itself, a split, never a
merge. `at_thread(v, t)` puts a concrete thread's bits in, which must give the concrete walk's value in thread t
wherever both are exact: tests/check/test_families_integers.py checks the rules so, and benchmarks/families_check.py
checks them on the corpus.
"""
from __future__ import annotations

import functools
import math
from dataclasses import dataclass

from ..poly import _norm, atom, op_atom, padd, pkey, pmul, ring
from ..predicates import _concrete, _disjoint
from ..rules import _cvt_types
from ..symbolic import Unsupported, _RING, _itype, _wrap

TID = "tid.x:"                    # the atoms over the thread index: its bits, and boolean functions of them
TBIT = TID + "b"                  # thread-index bit j: TBIT + str(j)
BOOL = TID + "f"                  # a boolean function of thread bits: BOOL + "j1.j2..:" + its truth table in hex
_NONNEG = ("ctaid_", "nctaid_")   # atoms known to be at least 0: program indices and grid extents
_NO_FLOOR = math.inf


def thread_index(n: int):
    """%tid.x of a block of n threads (a power of two, as .reqntid is for Triton): sum of 2^j t_j, j < log2 n."""
    if n < 1 or n & (n - 1):
        raise Unsupported(f"a block of {n} threads (not a power of two)")
    return _norm({(f"{TBIT}{j}",): 1 << j for j in range(n.bit_length() - 1)})


# -- boolean atoms: a 0/1 function of some thread bits, named canonically by its support and truth table ----------

@functools.lru_cache(maxsize=4096)   # (at_thread reads each atom's name at every thread)
def _table(a: str) -> tuple:
    """(support: thread-bit indices, ascending; truth table: bit i is the value where support bit k is bit k of i)."""
    if a.startswith(TBIT):
        return (int(a[len(TBIT):]),), 0b10
    support, table = a[len(BOOL):].split(":")
    return tuple(int(j) for j in support.split(".")), int(table, 16)


def _boolean(support: tuple, table: int):
    """The canonical name of a boolean function (support, table): its support reduced to the bits it reads, a
    thread bit's own atom, or the constant 0 or 1."""
    k = 0
    while k < len(support):     # drop a support bit the table does not read
        low = [table >> i & 1 for i in range(1 << len(support)) if not i >> k & 1]
        high = [table >> (i | 1 << k) & 1 for i in range(1 << len(support)) if not i >> k & 1]
        if low != high:
            k += 1
            continue
        table = sum(bit << n for n, bit in enumerate(low))
        support = support[:k] + support[k + 1:]
    if not support:
        return table & 1
    if len(support) == 1 and table == 0b10:
        return f"{TBIT}{support[0]}"
    return f"{BOOL}{'.'.join(map(str, support))}:{table:x}"


def _bool_at(a: str, t: int) -> int:
    """A boolean atom's value in thread t."""
    support, table = _table(a)
    return table >> sum(((t >> j) & 1) << k for k, j in enumerate(support)) & 1


_BOOL_OP = {"and": int.__and__, "or": int.__or__, "xor": int.__xor__}


def _bool_op(op: str, x, y):
    """op of two bits, each 0, 1 or a boolean atom: 0, 1 or a boolean atom."""
    f = _BOOL_OP[op]
    if x.__class__ is int and y.__class__ is int:
        return f(x, y)
    support = tuple(sorted({j for v in (x, y) if v.__class__ is str for j in _table(v)[0]}))
    table = 0
    for i in range(1 << len(support)):
        t = sum(((i >> k) & 1) << j for k, j in enumerate(support))
        table |= f(*(v if v.__class__ is int else _bool_at(v, t) for v in (x, y))) << i
    return _boolean(support, table)


# -- layouts: where a value's terms cannot carry into each other --------------------------------------------------

@dataclass(frozen=True)
class Layout:
    """The bits a laid-out value may set: `terms` {boolean atom: its coefficient, whose set bits are the positions
    the atom is at}, the constant `const` (its own bits), and `floor`, the lowest bit a symbol term may set (infinite
    where there is none). Terms, constant and floor hold disjoint bits."""
    terms: dict
    const: int
    floor: float


def _thread_atom(m) -> str | None:
    """The atom where the monomial is one boolean atom alone, else None."""
    return m[0] if len(m) == 1 and m[0].startswith(TID) else None


def layout(v) -> Layout | None:
    """v's Layout where its terms cannot carry into each other (see the module's docstring), else None."""
    if v.__class__ is int:
        return Layout({}, v, _NO_FLOOR) if v >= 0 else None
    terms, const, floor, held = {}, 0, _NO_FLOOR, 0
    for m, c in v.items():
        if not m:
            const = c
        elif _thread_atom(m) is not None:
            if c <= 0 or held & c:
                return None
            terms[m[0]] = c
            held |= c
        elif c > 0 and all(a.startswith(_NONNEG) for a in m):
            floor = min(floor, (c & -c).bit_length() - 1)
        else:
            return None
    if const < 0 or const & held or (floor != _NO_FLOOR and (held | const) >> int(floor)):
        return None
    return Layout(terms, const, floor)


def _symbols(v) -> dict:
    """v's symbol terms (neither a thread atom nor the constant)."""
    return {} if v.__class__ is int else {m: c for m, c in v.items() if m and _thread_atom(m) is None}


def shr(v, k: int):
    """v >> k where v is laid out and every symbol term is a multiple of 2^k, else None."""
    lay = layout(v)
    if lay is None or k > lay.floor:
        return None
    out = {m: c >> k for m, c in _symbols(v).items()}
    out.update({(a,): c >> k for a, c in lay.terms.items() if c >> k})
    out[()] = out.get((), 0) + (lay.const >> k)
    return _norm(out)


def _bits(lay: Layout) -> dict:
    """{position: 0/1 or the boolean atom there} for the positions below the floor a layout sets."""
    out = {q: 1 for q in range(lay.const.bit_length()) if lay.const >> q & 1}
    for a, c in lay.terms.items():
        out.update({q: a for q in range(c.bit_length()) if c >> q & 1})
    return out


def bitwise(op: str, a, b):
    """a op b (and, or, xor) bit position by position, where both are laid out and their symbol terms do not meet:
    at most one has any, and the other sets no bit from its floor up (or, xor: those terms pass; and: they meet only
    zeros and vanish). None else."""
    la, lb = layout(a), layout(b)
    if la is None or lb is None:
        return None
    if la.floor != _NO_FLOOR and lb.floor != _NO_FLOOR:
        return None
    if lb.floor != _NO_FLOOR:
        a, b, la, lb = b, a, lb, la
    if la.floor != _NO_FLOOR and (sum(lb.terms.values()) | lb.const) >> int(la.floor):
        return None
    ba, bb = _bits(la), _bits(lb)
    out = {} if op == "and" else _symbols(a)
    for q in set(ba) | set(bb):
        z = _bool_op(op, ba.get(q, 0), bb.get(q, 0))
        key = () if z.__class__ is int else (z,)
        if z:
            out[key] = out.get(key, 0) + (1 << q)
    return _norm(out)


def integer(op: str, args: list):
    """The value of an integer instruction (opcode op, operand values args) in every thread at once: what
    check/integers.py computes in each thread, where exact; an opaque atom else."""
    base = op.split(".")[0]
    if base == "neg":
        return pmul(args[0], -1)
    if all(a.__class__ is int for a in args):
        if base in _RING and ".hi" not in op:     # (a high half of constants: _concrete refuses it, as the walk)
            return _ring(op, base, args)
        if base == "cvt":
            return _cvt(op, args[0])
        return _concrete(op, args)
    out = None
    if base in _RING and (base != "shl" or args[1].__class__ is int) and ".hi" not in op:
        out = _ring(op, base, args)
    elif base == "cvt":
        out = _cvt(op, args[0])
    if out is not None or base in _RING or base == "cvt":
        return out if out is not None else _few_bits(op, args) or op_atom(op, args)
    if not all(_fits(a, _itype(op)[1]) for a in args if a.__class__ is dict):   # PTX would wrap them
        return _few_bits(op, args) or op_atom(op, args)
    if base == "shr" and args[1].__class__ is int:
        out = shr(args[0], args[1])
    elif base in ("and", "or", "xor") and len(args) == 2:
        width = _itype(op)[1]
        out = bitwise(base, *(_wrap(x, False, width) if x.__class__ is int else x for x in args))
        if out is None and base != "and" and not _reads_bits(args) and _disjoint(args[0], args[1], op):
            out = padd(args[0], args[1])    # (the concrete walk's own rule for symbols: disjoint bits add)
    elif op == "bfe.u32" and args[1].__class__ is int and args[2].__class__ is int and 0 < args[2] & 0xFF < 32:
        low = shr(args[0], args[1] & 0xFF)
        out = None if low is None else bitwise("and", low, (1 << (args[2] & 0xFF)) - 1)
    if out is None:
        out = _few_bits(op, args)
    return out if out is not None else op_atom(op, args)


def _fits(v, width: int) -> bool:
    """Whether a laid-out v's thread bits and constant lie below bit width - 1 (its symbols, as every index, do not
    wrap); True for a v that is not laid out (no bit rule takes it)."""
    lay = layout(v)
    return lay is None or (max((c.bit_length() for c in lay.terms.values()), default=0) < width
                           and lay.const < 1 << (width - 1))


def _reads_bits(args) -> bool:
    """Whether any operand reads a thread bit (the concrete walk's per-thread value is then a constant, computed
    with PTX's wrapping, which check/integers.py's rule for symbols does not model)."""
    return any(a.__class__ is dict and any(x.startswith(TID) for m in a for x in m) for a in args)


_FEW = 3   # thread bits a symbol-free result may be tabulated over (2^_FEW evaluations)


def _few_bits(op: str, args: list):
    """Any integer op whose operands read no symbol and at most _FEW thread bits: evaluated at every assignment
    of those bits as the concrete walk computes it on constants, and written as the unique polynomial in them that
    takes those values (exact), else None."""
    read = set()
    for a in args:
        if a.__class__ is dict:
            for m in a:
                for x in m:
                    if not x.startswith(TID):
                        return None
                    read.update(_table(x)[0])
    if not read or len(read) > _FEW:
        return None
    bits = sorted(read)
    names = [f"{TBIT}{j}" for j in bits]
    table = {}
    for assign in range(1 << len(bits)):
        t = sum(1 << j for i, j in enumerate(bits) if assign >> i & 1)
        vals = [at_thread(a, t) for a in args]
        if any(v.__class__ is not int for v in vals):
            return None
        try:     # (the concrete walk's arithmetic on constants: integer() of constants is exactly that)
            table[assign] = integer(op, vals)
        except Unsupported:
            return None
        if table[assign].__class__ is not int:
            return None
    return _norm(multilinear([table[a] for a in range(1 << len(names))], names))


def multilinear(values: list, names: list) -> dict:
    """The unique polynomial in the 0/1 variables `names`, multilinear, that takes values[a] where variable i is bit i
    of a: {monomial (its names in the order of `names`): coefficient}, by the Moebius transform."""
    coef = list(values)
    for i in range(len(names)):
        for a in range(len(coef)):
            if a >> i & 1:
                coef[a] -= coef[a ^ (1 << i)]
    return {tuple(x for i, x in enumerate(names) if a >> i & 1): c for a, c in enumerate(coef) if c}


def _ring(op, base, args):
    """add, sub, mul, mad, shl (and their .wide forms) as check/integers.py computes them, constants too: where the
    concrete walk wraps an operand (a 16-bit one read signed, a .wide one extended), so does this, in every thread
    where the operand reads no symbol (the concrete walk's value there is a constant); else None."""
    if op.endswith("16"):     # a 16-bit constant counts as its signed value in index arithmetic
        args = [wrap(a, True, 16) for a in args]
    if ".wide" in op:
        signed, bits = _itype(op)
        args = [wrap(a, signed, bits) for a in args[:2]] + args[2:]
    if any(a is None for a in args):
        return None
    return ring(base, args)     # (unwrapped, as the concrete walk's: index arithmetic does not wrap)


def _cvt(op, x):
    """An integer conversion: a value that reads no symbol wrapped as PTX converts it (the concrete walk's
    constants), where it wraps alike in every thread (else None); a symbolic index widened or taken from 64 to 32
    bits is the same integer (no wrap), a narrowing below 32 bits an atom."""
    dst, src = _cvt_types(op)
    signed, bits = dst[0] == "s", int(dst[1:])
    if _free_of_symbols(x):
        if int(src[1:]) < bits:
            x = wrap(x, src[0] == "s", int(src[1:]))
        return None if x is None else wrap(x, signed, bits)
    if bits < 32 and int(src[1:]) > bits:
        return atom(f"{op}({pkey(x)})")
    return x


def _free_of_symbols(v) -> bool:
    """Whether v reads nothing but thread bits (every thread's value a constant)."""
    return v.__class__ is int or all(x.startswith(TID) for m in v for x in m)


def wrap(v, signed: bool, width: int):
    """v taken to `width` bits as PTX does (symbol.py's _wrap) in every thread, where v reads no symbol: v less the
    one multiple of 2^width that brings every thread's value into the type's range, None where threads need
    different ones. A v that reads a symbol is returned as it is (indices do not wrap)."""
    if v.__class__ is int:
        return _wrap(v, signed, width)
    if v is None or not _free_of_symbols(v):
        return v
    lo = hi = v.get((), 0)
    for m, c in v.items():
        if m:
            lo, hi = lo + min(c, 0), hi + max(c, 0)
    span = 1 << width
    floor = -(span >> 1) if signed else 0
    k = (lo - floor) // span
    if (hi - floor) // span != k:
        return None
    return padd(v, -k * span) if k else v


def values(v, n: int) -> list:
    """[at_thread(v, t) for t < n] of a v that reads no symbol: by doubling where its thread terms are single bits
    (one addition a thread), else monomial by monomial over the threads where it is 1 (_atom_mask)."""
    if v.__class__ is int:
        return [v] * n
    if all(len(m) == 1 and m[0].startswith(TBIT) for m in v if m):
        out = [v.get((), 0)]
        coef = {int(m[0][len(TBIT):]): c for m, c in v.items() if m}
        for j in range(n.bit_length() - 1):
            c = coef.get(j, 0)
            out += [x + c for x in out]
        return out
    if any(not a.startswith(TID) for m in v for a in m):
        return [at_thread(v, t) for t in range(n)]
    out = [v.get((), 0)] * n
    for m, c in v.items():
        if not m:
            continue
        mask = (1 << n) - 1
        for a in m:
            mask &= _atom_mask(a, n)
        while mask:
            low = mask & -mask
            out[low.bit_length() - 1] += c
            mask ^= low
    return out


@functools.lru_cache(maxsize=4096)
def _atom_mask(a: str, n: int) -> int:
    """The threads t < n where boolean atom a is 1, as bits of an int."""
    support, table = _table(a)
    full = (1 << n) - 1
    out = 0
    for i in range(1 << len(support)):
        if table >> i & 1:
            rows = full
            for k, j in enumerate(support):
                rows &= half(n, j, i >> k & 1 == 1)
            out |= rows
    return out


@functools.lru_cache(maxsize=1024)
def half(n: int, j: int, one: bool) -> int:
    """The threads t < n whose thread bit j is one (or zero), as bits of an int."""
    return sum(1 << t for t in range(n) if (t >> j & 1) == one)


def at_thread(v, t: int):
    """v in thread t: each thread bit t_j replaced by bit j of t, each boolean atom by its value there."""
    if v.__class__ is int:
        return v
    out: dict = {}
    for m, c in v.items():
        keep = []
        for a in m:
            if a.startswith(TID):
                if not _bool_at(a, t):
                    break
            else:
                keep.append(a)
        else:
            key = tuple(keep)
            out[key] = out.get(key, 0) + c
    return _norm(out)
