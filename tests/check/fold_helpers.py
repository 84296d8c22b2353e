"""What the fold tests share (test_const_fold.py, test_store_fold.py): whether compiled kernels kept their loops,
a partition with one rule switch set, the brute force of a comparison linear in the turn (or element) T, and the
one-hot pick both fold their loop of."""
import pytest
import triton
import triton.language as tl
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


@triton.jit
def const_pick(x_ptr, t_ptr, y_ptr, C: tl.constexpr, BC: tl.constexpr, SCALE: tl.constexpr = 1.0):
    """nll_loss's pick: sum over the row of where(i == target, SCALE x, 0), one-hot (one i is the target)."""
    row = tl.program_id(0)
    target = tl.load(t_ptr + row)
    acc = tl.zeros([BC], tl.float32)
    for c0 in range(0, C, BC):
        cols = c0 + tl.arange(0, BC)
        x = tl.load(x_ptr + row * C + cols, mask=cols < C, other=0.0)
        acc += tl.where(cols == target, x * SCALE, 0.0)
    tl.store(y_ptr + row, tl.sum(acc, 0))


@triton.jit
def skipped_pick(x_ptr, t_ptr, y_ptr, n_rows, C: tl.constexpr, BC: tl.constexpr, SCALE: tl.constexpr = 1.0,
                 GUARD: tl.constexpr = True):
    """const_pick inside `if row < n_rows` (GUARD): a branch around the loop on a runtime bound (the walk's skip, as
    in TorchInductor's cross-entropy backward, where LLVM skips the loop of an all-masked block)."""
    row = tl.program_id(0)
    acc = tl.zeros([BC], tl.float32)
    if (row < n_rows) or not GUARD:
        target = tl.load(t_ptr + row)
        for c0 in range(0, C, BC):
            cols = c0 + tl.arange(0, BC)
            x = tl.load(x_ptr + row * C + cols, mask=cols < C, other=0.0)
            acc += tl.where(cols == target, x * SCALE, 0.0)
    tl.store(y_ptr + row, tl.sum(acc, 0))
