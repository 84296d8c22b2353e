"""Integers over one symbolic thread: %tid.x as the sum of 2^j t_j over bit symbols t_j, each 0 or 1
(docs/check-families.md, step 1; the paper's address rules, section 6.1).

A register then holds one polynomial (poly.py's form) for its value in every thread. Ring operations stay exact as
the concrete walk's are (check/integers.py, index arithmetic assumed not to wrap). The bitwise rules are new: the
concrete walk never needs them, since it knows every thread's index. They read a value's *layout*, the bits each
term may set:
- a thread bit times 2^q sets bit q alone;
- a non-negative constant sets its own bits;
- a symbol known to be non-negative (a block index or the grid's extent) times 2^q * odd may set any bit from q up
  (its *floor*).

A value is laid out when its thread bits and its constant share no bit and all lie below every symbol's floor. Its
terms then add without carries, so its bits are the union of theirs. Then:
- `shr` by k (k at most the floor) drops what lies below bit k and renumbers the rest;
- `and` with a constant mask below the floor keeps the thread bits it selects and masks the constant;
- `or` and `xor` of two values whose bits cannot overlap is their sum.

Anything else is an opaque atom named by the operation and its operands: it equals only itself, a split, never a
merge. `at_thread(v, t)` puts a concrete thread's bits in, which must give the concrete walk's value in thread t
wherever both are exact: tests/check/test_families_integers.py checks the rules so, and benchmarks/families_check.py
checks them on the corpus.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from ..poly import _norm, atom, padd, pkey, pmul
from ..predicates import _concrete, _disjoint
from ..rules import _cvt_types
from ..symbolic import Unsupported, _RING, _itype, _wrap

TBIT = "tid.x:b"                  # the atom of thread-index bit j is TBIT + str(j)
_NONNEG = ("ctaid_", "nctaid_")   # atoms known to be at least 0: program indices and grid extents
_NO_FLOOR = math.inf


def thread_index(n: int):
    """%tid.x of a block of n threads (a power of two, as .reqntid is for Triton): sum of 2^j t_j, j < log2 n."""
    if n < 1 or n & (n - 1):
        raise Unsupported(f"a block of {n} threads (not a power of two)")
    return _norm({(f"{TBIT}{j}",): 1 << j for j in range(n.bit_length() - 1)})


def _bit(monomial) -> int | None:
    """j where the monomial is the thread bit t_j alone, else None."""
    if len(monomial) == 1 and monomial[0].startswith(TBIT):
        return int(monomial[0][len(TBIT):])
    return None


@dataclass(frozen=True)
class Layout:
    """The bits a laid-out value may set: `bits` {bit position: the thread bit's monomial set there}, the constant
    `const` (its own bits), and `floor`, the lowest bit a symbol term may set (infinite where there is none)."""
    bits: dict
    const: int
    floor: float


def layout(v) -> Layout | None:
    """v's Layout where its terms cannot carry into each other (see the module's docstring), else None."""
    if v.__class__ is int:
        return Layout({}, v, _NO_FLOOR) if v >= 0 else None
    bits, const, floor = {}, 0, _NO_FLOOR
    for m, c in v.items():
        if not m:
            const = c
        elif _bit(m) is not None:
            if c <= 0 or c & (c - 1) or c.bit_length() - 1 in bits:
                return None
            bits[c.bit_length() - 1] = m
        elif c > 0 and all(a.startswith(_NONNEG) for a in m):
            floor = min(floor, (c & -c).bit_length() - 1)
        else:
            return None
    held = sum(1 << q for q in bits)
    if const < 0 or const & held or (floor != _NO_FLOOR and (held | const) >> int(floor)):
        return None
    return Layout(bits, const, floor)


def _symbols(v) -> dict:
    """v's symbol terms (neither thread bit nor constant)."""
    return {} if v.__class__ is int else {m: c for m, c in v.items() if m and _bit(m) is None}


def shr(v, k: int):
    """v >> k where v is laid out and every symbol term is a multiple of 2^k, else None."""
    lay = layout(v)
    if lay is None or k > lay.floor:
        return None
    out = {m: c >> k for m, c in _symbols(v).items()}
    out.update({m: 1 << (q - k) for q, m in lay.bits.items() if q >= k})
    out[()] = out.get((), 0) + (lay.const >> k)
    return _norm(out)


def mask(v, m: int):
    """v & m for a constant m >= 0 where v is laid out and m lies below its floor, else None."""
    lay = layout(v)
    if lay is None or m < 0 or (lay.floor != _NO_FLOOR and m >> int(lay.floor)):
        return None
    out = {b: 1 << q for q, b in lay.bits.items() if m >> q & 1}
    out[()] = lay.const & m
    return _norm(out)


def _held(lay: Layout) -> tuple:
    """(the set bits below the floor, the floor) of a layout."""
    return sum(1 << q for q in lay.bits) | lay.const, lay.floor


def disjoint(a, b) -> bool:
    """Whether a and b are laid out and cannot set a common bit (so a | b = a ^ b = a + b)."""
    la, lb = layout(a), layout(b)
    if la is None or lb is None:
        return False
    (ha, fa), (hb, fb) = _held(la), _held(lb)
    if ha & hb or (fa != _NO_FLOOR and fb != _NO_FLOOR):
        return False
    return (fa == _NO_FLOOR or not hb >> int(fa)) and (fb == _NO_FLOOR or not ha >> int(fb))


def integer(op: str, args: list):
    """The value of an integer instruction (opcode op, operand values args) in every thread at once: what
    check/integers.py computes in each thread, where exact; an opaque atom else."""
    base = op.split(".")[0]
    if base == "neg":
        return pmul(args[0], -1)
    if all(a.__class__ is int for a in args):
        if base in _RING:
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
        return out if out is not None else _few_bits(op, args) or atom(f"{op}({','.join(pkey(a) for a in args)})")
    if not all(_fits(a, _itype(op)[1]) for a in args if a.__class__ is dict):   # PTX would wrap them
        return _few_bits(op, args) or atom(f"{op}({','.join(pkey(a) for a in args)})")
    if base == "shr" and args[1].__class__ is int:
        out = shr(args[0], args[1])
    elif base == "and" and len(args) == 2:
        a, b = args if args[1].__class__ is int else args[::-1]
        if b.__class__ is int:
            out = mask(a, _wrap(b, False, _itype(op)[1]))
    elif base in ("or", "xor") and (disjoint(args[0], args[1]) or
                                    (not _reads_bits(args) and _disjoint(args[0], args[1], op))):
        out = padd(args[0], args[1])
    elif base == "xor" and len(args) == 2 and (args[0].__class__ is int or args[1].__class__ is int):
        out = flip(*(args if args[1].__class__ is int else args[::-1]))
    elif op == "bfe.u32" and args[1].__class__ is int and args[2].__class__ is int and 0 < args[2] & 0xFF < 32:
        low = shr(args[0], args[1] & 0xFF)
        out = None if low is None else mask(low, (1 << (args[2] & 0xFF)) - 1)
    if out is None:
        out = _few_bits(op, args)
    return out if out is not None else atom(f"{op}({','.join(pkey(a) for a in args)})")


def _fits(v, width: int) -> bool:
    """Whether a laid-out v's thread bits and constant lie below bit width - 1 (its symbols, as every index, do not
    wrap); True for a v that is not laid out (no bit rule takes it)."""
    lay = layout(v)
    return lay is None or (max(lay.bits, default=0) < width - 1 and lay.const < 1 << (width - 1))


def _reads_bits(args) -> bool:
    """Whether any operand reads a thread bit (the concrete walk's per-thread value is then a constant, computed
    with PTX's wrapping, which check/integers.py's rule for symbols does not model)."""
    return any(a.__class__ is dict and any(x.startswith(TBIT) for m in a for x in m) for a in args)


def flip(v, k: int):
    """v ^ k for a constant k >= 0 where v is laid out and k lies below its floor: each bit of k flips a thread bit
    (2^q t becomes 2^q (1 - t)), clears a bit of the constant or sets a free bit; else None."""
    lay = layout(v)
    if lay is None or k < 0 or (lay.floor != _NO_FLOOR and k >> int(lay.floor)):
        return None
    out = dict(v) if v.__class__ is dict else {(): v}
    for q in range(k.bit_length()):
        if not k >> q & 1:
            continue
        if q in lay.bits:
            out[lay.bits[q]] = -(1 << q)
            out[()] = out.get((), 0) + (1 << q)
        else:
            out[()] = out.get((), 0) + (-(1 << q) if lay.const >> q & 1 else 1 << q)
    return _norm(out)


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
                    if not x.startswith(TBIT):
                        return None
                    read.add(x)
    if not read or len(read) > _FEW:
        return None
    names = sorted(read)
    table = {}
    for assign in range(1 << len(names)):
        t = sum(1 << int(x[len(TBIT):]) for i, x in enumerate(names) if assign >> i & 1)
        vals = [at_thread(a, t) for a in args]
        if any(v.__class__ is not int for v in vals):
            return None
        try:     # (the concrete walk's arithmetic on constants: integer() of constants is exactly that)
            table[assign] = integer(op, vals)
        except Unsupported:
            return None
        if table[assign].__class__ is not int:
            return None
    coef = dict(table)      # the Moebius transform: the coefficient of each product of bits
    for i in range(len(names)):
        for assign in range(1 << len(names)):
            if assign >> i & 1:
                coef[assign] -= coef[assign ^ (1 << i)]
    return _norm({tuple(x for i, x in enumerate(names) if assign >> i & 1): c for assign, c in coef.items() if c})


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
    if base == "add":
        r = padd(args[0], args[1])
    elif base == "sub":
        r = padd(args[0], args[1], -1)
    elif base == "mul":
        r = pmul(args[0], args[1])
    elif base == "mad":
        r = padd(pmul(args[0], args[1]), args[2])
    else:
        r = pmul(args[0], 1 << args[1])
    return r     # (unwrapped, as the concrete walk's: index arithmetic does not wrap)


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
    return v.__class__ is int or all(x.startswith(TBIT) for m in v for x in m)


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


def at_thread(v, t: int):
    """v in thread t: each thread bit t_j replaced by bit j of t."""
    if v.__class__ is int:
        return v
    out: dict = {}
    for m, c in v.items():
        keep = []
        for a in m:
            if a.startswith(TBIT):
                if not (t >> int(a[len(TBIT):])) & 1:
                    break
            else:
                keep.append(a)
        else:
            key = tuple(keep)
            out[key] = out.get(key, 0) + c
    return _norm(out)
