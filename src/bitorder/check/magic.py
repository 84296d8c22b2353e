"""Division by a constant, read back (integers.py calls this): LLVM lowers an index's x // c to a multiply by a
"magic" constant, mul.hi(x, M) >> s (plus, signed, the quotient's sign bit: mul.hi >> 31), and one configuration's
code picks another M and s than its twin's for the same division. Where x is provably non-negative and (M, s) is
exact for every x the register can hold, the quotient is the atom floordiv(x, c): the same name for the same division
however it was lowered. On unless BITORDER_MAGIC_DIV=0 (ON); gated on the H200 on 2026-12-04d (call 4: the 21
Inductor kernels, 0 wrong merges; gpt2_mlp poi2 9 -> 4 classes, its truth).

Exactness (Granlund and Montgomery; Hacker's Delight 10-9): with e = M c - 2^(32 + s) >= 0,
x M / 2^(32 + s) = x / c + x e / (c 2^(32 + s)), and floor(x / c) is kept for every 0 <= x < X exactly when the
second term never carries the first past an integer; (X - 1) e < 2^(32 + s) is enough (frac(x / c) <= (c - 1) / c).
X is 2^31 for mul.hi.s32 (a non-negative s32 index) and 2^32 for mul.hi.u32. Non-negative: a polynomial whose
coefficients are all >= 0 over the block indices and grid extents (%ctaid, %nctaid), which are. That the register
holds the polynomial's value at all is the walk's assumption that index arithmetic does not wrap.
"""
from __future__ import annotations

import math
import os

from .poly import atom, pkey

ON = os.environ.get("BITORDER_MAGIC_DIV", "1") != "0"   # BITORDER_MAGIC_DIV=0: the quotient stays opaque
_NONNEG = {"ctaid_x", "ctaid_y", "ctaid_z", "nctaid_x", "nctaid_y", "nctaid_z"}
PRODUCTS = {}   # the name of a mul.hi atom -> (x, M, X): a pure function of the name, shared by walks


def nonneg(x) -> bool:
    """Whether integer polynomial x is >= 0 for every value of its symbols."""
    if x.__class__ is int:
        return x >= 0
    return all(c >= 0 and all(s in _NONNEG for s in m) for m, c in x.items())


def divisor(m: int, s: int, bound: int):
    """The c with floor(x * m / 2^(32 + s)) == floor(x / c) for every 0 <= x < bound, or None."""
    if m <= 0 or not 0 <= s < 32:
        return None
    p = 1 << (32 + s)
    c = -(-p // m)                   # the least c with m c >= p
    e = m * c - p
    return c if c > 1 and (bound - 1) * e < p else None


def product(op, x, m):
    """The atom of mul.hi(x, m) as the walk names it, noted where a shift may read it as a quotient; else None."""
    if op not in ("mul.hi.s32", "mul.hi.u32") or m.__class__ is not int or not nonneg(x):
        return None
    bound = 1 << 31 if op == "mul.hi.s32" else 1 << 32
    if not 0 < m < (1 << 31 if op == "mul.hi.s32" else 1 << 32):
        return None
    a = atom(f"{op}({pkey(x)},{pkey(m)})")
    PRODUCTS[next(iter(a))[0]] = (x, m, bound)   # (emptied between walks only: dataflow._reset_tables)
    return a


def shifted(op, a, s):
    """shr.u32 / shr.s32 of a noted mul.hi by s: 0 where every high half the register can hold is below 2^s (the
    signed quotient's sign bit: x >= 0 and 0 < m < 2^31), else floordiv(x, c) where (m, s) is exact; else None."""
    if op not in ("shr.u32", "shr.s32", "shr.b32") or s.__class__ is not int or a.__class__ is not dict or len(a) != 1:
        return None
    (m, coef), = a.items()
    hit = PRODUCTS.get(m[0]) if coef == 1 and len(m) == 1 else None
    if hit is None:
        return None
    x, mult, bound = hit
    high = ((bound - 1) * mult) >> 32          # the largest high half the register can hold
    if op == "shr.s32" and high >> 31:
        return None                            # (an arithmetic shift would extend its bit 31)
    if high >> s == 0:
        return 0
    c = divisor(mult, s, bound)
    return None if c is None else quotient(x, c)


def quotient(x, c):
    """The atom floordiv(x, c) for x >= 0 (nonneg's), x's constant rounded down (rounded)."""
    if x.__class__ is int:
        return x // c
    return atom(f"floordiv({pkey(rounded(x, c))},{c})")


def rounded(x: dict, c: int) -> dict:
    """x with its constant r rounded down to a multiple of g, the gcd of c and x's other coefficients: x - r is a
    multiple of g, as every multiple of c is, so adding r mod g < g cannot reach the next multiple of c, and
    floor(x / c) is floor(rounded / c). So the elements of one vector (x, x + 1, ...: a divisor and a base that are
    multiples of the width) share their quotient, however a configuration computed it."""
    g = c
    for m, k in x.items():
        if m:
            g = math.gcd(g, k)
    r = x.get((), 0)
    out = dict(x)
    out[()] = g * (r // g)
    if not out[()]:
        del out[()]
    return out
