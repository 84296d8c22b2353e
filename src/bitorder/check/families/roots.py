"""The family walk's stores put at every thread (families/walk.py): the concrete walk's roots ({address key: (guard
name, value key, width)}) rebuilt from the families alone, so tests and benchmarks/families_walk.py can hold the two
walks equal, store by store, on a kernel both take."""
from __future__ import annotations

from ..poly import UNDEF, pkey, short
from ..symbolic import Unsupported
from . import floats as ff
from . import integers as fi
from . import predicates as fp
from . import subst as fsub


def _undefined_at(f, t: int, memo: dict) -> bool:
    """Whether family f's tree in thread t reads a register never written (the concrete walk refuses its store)."""
    if f is ff.UNDEF:
        return True
    hit = memo.get((id(f), t))
    if hit is None:
        cls = f.__class__
        if cls is ff.Select:
            g = None if ff.has_float(f.pred) else fp.at_thread(f.pred, t)
            arms = [f.a if g else f.b] if g.__class__ is bool else [f.a, f.b]
        else:
            arms = list(ff.children(f))
        hit = memo[(id(f), t)] = any(_undefined_at(a, t, memo) for a in arms)
    return hit


def roots_at(stores: list, n: int) -> dict:
    """The concrete walk's roots ({address key: (guard name, value key, width)}) of a block of n threads, rebuilt
    from the families at every thread: what dataflow.walk returns for the same kernel, where the families are
    faithful. Refuses (Unsupported) where the concrete walk would: two stores of different values to one address, a
    value or guard that cannot be named at a thread."""
    roots: dict = {}
    memo: dict = {}
    undef: dict = {}
    seen: dict = {}

    def reads(f) -> int:
        return fsub.reads(f, n, seen)
    for s in stores:
        for t in range(n):
            g = fp.at_thread(s.guard, t)
            if g is False:
                continue
            k = pkey(fi.at_thread(s.address, t))
            v = ff.key_at(s.value, t, memo, (), reads)
            if v is None or UNDEF in k:
                raise Unsupported("a store the families cannot name at a thread")
            if _undefined_at(s.value, t, undef):
                raise Unsupported("an output may depend on a register or shared word never written")
            entry = ("always" if g is True else short(str(g)), v, s.width)
            prev = roots.get(k)
            if prev is not None and prev[1:] != entry[1:]:
                raise Unsupported("two stores of different values to one address")
            if prev is not None and prev[0] != entry[0]:
                raise Unsupported("one value stored under two guards (not modelled here)")
            roots[k] = entry
    return roots
