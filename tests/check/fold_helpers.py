"""What the fold tests share (test_const_fold.py, test_store_fold.py): whether compiled kernels kept their loops,
a partition with one rule switch set, and the brute force of a comparison linear in the turn (or element) T."""
import pytest
from hypothesis import strategies as st

from bitorder import check
from bitorder.check.bits import LOOP_T

# setp's integer orders as Python's (lo, ls, hi, hs: the unsigned spellings)
ORDER = {"lt": int.__lt__, "le": int.__le__, "gt": int.__gt__, "ge": int.__ge__, "eq": int.__eq__,
         "ne": int.__ne__, "lo": int.__lt__, "ls": int.__le__, "hi": int.__gt__, "hs": int.__ge__}


def side(coefficients):
    """A comparison's side: a constant, or c + k T with k drawn from `coefficients`."""
    return st.one_of(st.integers(-70000, 70000),
                     st.fixed_dictionaries({(): st.integers(-70000, 70000), LOOP_T: st.sampled_from(coefficients)}))


def at(p, t):
    """Side p's value at T = t."""
    return p if isinstance(p, int) else p.get((), 0) + p.get(LOOP_T, 0) * t


def looped(*kernels) -> bool:
    """Whether every kernel still holds its loops (LLVM unrolls a short constant one: nothing to fold)."""
    return all("bra" in k.ptx for k in kernels)


def classes(kernels, module, switch: str, on: bool):
    """(partition, each kernel's level "v0"/"v1") with module.<switch> set to `on`."""
    with pytest.MonkeyPatch.context() as m:
        m.setattr(module, switch, on)
        return check.partition(kernels), [check.level(k)[:2] for k in kernels]
