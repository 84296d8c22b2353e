"""NaN payloads ptxas may change: float selects it may lower to a min or max.

PTX's selp moves bits, so a NaN passes through it with its payload. But ptxas treats payloads
as free: it lowered Inductor's `maximum(-inf, x)` (where(-inf > x | isnan(-inf), -inf, x), x for
every x) to `FMNMX.NAN x, -INF`, which returns the canonical NaN 0x7FFFFFFF where x is a NaN
with another payload (torch's float("nan") is 0x7FC00000). It did so in one configuration and
kept the select in its num_warps twin, so two programs with the same dependence trees returned
different bytes (benchmarks/results/2026-12-03e-gpu, call 2: the checker's one wrong merge, on
NaN draws only).

So a select ptxas may lower to a min or max is *payload-free*: where it yields a NaN, the NaN's
payload is whatever ptxas chose. That is a select on a float comparison of its own two arms
(select(a > b, a, b), a constant arm included: FMNMX's shape; for an and/or of comparisons, every
arm among the values they compare), an arm being a NaN test's select over the compared values
(the other half of a NaN-keeping max), and a select on a predicate the walk cannot read.
Arithmetic (add, sub, mul, fma, div) returns the canonical NaN for any NaN operand, which ends the
doubt; data movement (shuffles, shared memory, selects, moves) carries it on. A payload-free
value stored to global memory, or read as integer bits, is refused (the walk falls back to v0's program text: equal texts are equal machine code).
Predicates from integer comparisons (masks, bounds, one-hot equalities) are exempt: a select on
them is never a min or max of its arms; so is a float comparison of other values than the arms
(the shared log's select(sub, x * 2^23, x) before its bit tricks, bitorder.math).
"""
from __future__ import annotations

from .poly import pname

# texts (pname(p)) of and/or/xor/not predicates built from integer comparisons alone
INT_TEXTS: set = set()
# select payload names (predicates.select's) whose predicate is integer-only
INT_NAMES: set = set()
# select payload names of a single float comparison -> (comparison, its two operands' keys), or
# of an and/or of comparisons -> ("composite", every value they compare)
COMPARES: dict = {}
# texts of and/or/not predicates whose parts are all read -> the values their float comparisons compare
COMPOSED: dict = {}
_INT_TAGS = ("cmp0", "cmp", "cmpm")
_COMPOSITE = ("and", "or", "xor", "not")
# float instructions whose NaN results are canonical whatever their operands' payloads
CANONICAL = frozenset({"add", "sub", "mul", "fma", "mad", "div"})


def integer_pred(p) -> bool:
    """Whether predicate p depends on integer comparisons alone (never on a float comparison)."""
    if p.__class__ is bool:
        return True
    if p.__class__ is tuple and p:
        tag = p[0]
        if tag in _INT_TAGS:
            return True
        if tag in _COMPOSITE:
            return pname(p) in INT_TEXTS
    return False


def note_composite(result, operands) -> None:
    """_pred or negate built `result` (and/or/xor/not) from `operands`: remember it integer-only
    when they all are, else which values its float comparisons compare (when it knows them all)."""
    if result.__class__ is not tuple:
        return
    if all(integer_pred(x) for x in operands):
        INT_TEXTS.add(pname(result))
        return
    compared: set = set()
    for x in operands:
        if integer_pred(x):
            continue
        if x.__class__ is tuple and x and x[0] == "fcmp":
            compared.update(x[2:4])
        else:
            known = COMPOSED.get(pname(x)) if x.__class__ is tuple and x and x[0] in _COMPOSITE else None
            if known is None:
                return             # a part it cannot read: the selects on it stay payload-free
            compared |= known
    COMPOSED[pname(result)] = frozenset(compared)


def note_select(name: str, g) -> None:
    """predicates.select named predicate g `name` (its positive form)."""
    if integer_pred(g):
        INT_NAMES.add(name)
    elif g.__class__ is tuple and g[0] == "fcmp":
        COMPARES[name] = (g[1].split(".")[1], g[2], g[3])
    elif g.__class__ is tuple and g and g[0] in _COMPOSITE:
        known = COMPOSED.get(pname(g))
        if known is not None:
            COMPARES[name] = ("composite", *known)


def payload_free(key: str, payload: str, ka: str, kb: str) -> bool:
    """Whether ptxas may lower the select(payload, ka, kb) keyed `key` to a min or max: an ordered
    comparison of its own arms, an arm being a NaN test's select over the compared values
    (LLVM's select(a > b, a, select(isnan(a), a, b)) is a NaN-keeping max), or a predicate it
    cannot read (a name never noted: a memo skips note_select only after the tables were emptied
    with it, so this errs on the safe side). A NaN test's select alone (libdevice's
    select(isnan(x), x, exp(x))) is no min or max: it is noted for the select around it."""
    if payload in INT_NAMES:
        return False
    hit = COMPARES.get(payload)
    if hit is None:
        return True
    cmp, ops = hit[0], hit[1:]
    if cmp in ("nan", "num"):
        NAN_TESTS[key] = (ka, kb)
        return False
    for k in (ka, kb):
        if k not in ops and not (k in NAN_TESTS and all(j in ops for j in NAN_TESTS[k])):
            return False
    return True


NAN_TESTS: dict = {}   # a walk's selects on a NaN test: node key -> its two arms' keys


def canonical(op: str) -> bool:
    """Whether float instruction op returns the canonical NaN for any NaN operand."""
    hit = _CANON.get(op)
    if hit is None:
        hit = _CANON[op] = op.split(".")[0] in CANONICAL and any(t in op for t in (".f32", ".f64", ".f16", ".bf16"))
    return hit


_CANON: dict = {}


def reset() -> None:
    """Forget both tables (with symbolic._SELECT, which skips note_select on a hit)."""
    INT_TEXTS.clear()
    INT_NAMES.clear()
