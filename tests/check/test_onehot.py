"""One-hot sums (check/onehot.py): the arithmetic they rest on, and the walk keying sums of
`where(r == target, -1, 0) * s` by their terms (so tile sizes and num_warps merge) while sums
whose terms can be nonzero together stay apart."""
import os
import random
import sys

import numpy as np
import pytest
import triton
import triton.language as tl
from hypothesis import given, settings, strategies as st

import bitorder
from bitorder import check

HERE = os.path.dirname(os.path.abspath(__file__))
CANONICAL_NAN = np.uint32(0x7FFFFFFF)    # what NVIDIA's add.f32 returns for any NaN result


def _add(a: np.float32, b: np.float32) -> np.float32:
    """add.rn.f32 as the H200 runs it: IEEE round to nearest, denormals kept, NaNs canonical."""
    r = np.float32(a + b)
    return np.uint32(CANONICAL_NAN).view(np.float32) if np.isnan(r) else r


def _tree(values, rng):
    """A random add tree over values (every shape reachable): the bits of its root."""
    vals = list(values)
    while len(vals) > 1:
        i = rng.randrange(len(vals) - 1)
        vals[i:i + 2] = [_add(vals[i], vals[i + 1])]
    return vals[0].view(np.uint32)


_SPECIAL = [0.0, -0.0, float("inf"), float("-inf"), float("nan"), 1e-45, -1e-45, 3.0, -2.5e38]
_one = st.one_of(st.sampled_from(_SPECIAL), st.integers(0, 2 ** 32 - 1).map(
    lambda b: float(np.uint32(b).view(np.float32))))
_zero_or_nan = st.sampled_from([0.0, -0.0, float("nan")])


@settings(max_examples=400, deadline=None)
@given(one=_one, rest=st.lists(_zero_or_nan, min_size=1, max_size=10), seed=st.integers(0, 2 ** 31))
def test_a_sum_with_at_most_one_term_not_a_zero_or_nan_has_one_value_in_every_order(one, rest, seed):
    """onehot.py's claim: terms all in {+0, -0, NaN} but one (anything, NaNs of any payload
    included), summed by add.rn.f32 in any tree over any order, give the same bits."""
    rng = random.Random(seed)
    terms = [np.float32(one)] + [np.float32(x) for x in rest]
    answers = set()
    for _ in range(6):
        rng.shuffle(terms)
        answers.add(int(_tree(terms, rng)))
    assert len(answers) == 1, (one, rest, answers)


def test_two_terms_not_zero_do_give_different_orders_different_bits():
    """The rule's condition matters: with two nonzero terms the order shows."""
    a, b, c = np.float32(1.0), np.float32(2.0 ** -24), np.float32(2.0 ** -24)
    assert _add(_add(a, b), c) != _add(a, _add(b, c))


# -- the walk ----------------------------------------------------------------------------------

@triton.jit
def _onehot_sum(t_ptr, s_ptr, x_ptr, out_ptr, N: tl.constexpr, BLOCK: tl.constexpr, RULE: tl.constexpr):
    row = tl.program_id(0)
    target = tl.load(t_ptr + row)
    s = tl.load(s_ptr + row)
    acc = tl.zeros([BLOCK], tl.float32)
    for off in range(0, N, BLOCK):
        r = off + tl.arange(0, BLOCK)
        if RULE == 0:                    # one index of the row: exclusive terms (nll_loss backward)
            acc += tl.where(r == target, -1.0, 0.0) * s
        elif RULE == 1:                  # a range of indices: not exclusive
            acc += tl.where(r >= target, tl.load(x_ptr + r), 0.0)
        else:                            # eight indices a value: equalities, but not exclusive
            acc += tl.where(r // 8 == target, tl.load(x_ptr + r), 0.0)
    tl.store(out_ptr + row, tl.sum(acc, 0))


def _compile(rule, block, warps):
    return bitorder.compile(_onehot_sum, "sm90", num_warps=warps, num_stages=1,
                            signature={"t_ptr": "*i64", "s_ptr": "*fp32", "x_ptr": "*fp32", "out_ptr": "*fp32"},
                            constexprs={"N": 1024, "BLOCK": block, "RULE": rule})


SPACE = [(128, 1), (128, 4), (256, 2), (512, 4)]


def test_one_hot_sums_merge_over_tile_and_num_warps():
    """`where(r == target, -1, 0) * s` summed in four orders (tile 128-512, 1-4 warps; ptxas's
    fma(s, u, acc) accumulation): one class, walked by v1."""
    ks = [_compile(0, b, w) for b, w in SPACE]
    assert all(check.level(k).startswith("v1") for k in ks), [check.level(k) for k in ks]
    assert len({check.signature(k) for k in ks}) == 1


@pytest.mark.parametrize("rule", [1, 2], ids=["r>=target", "r//8==target"])
def test_sums_whose_terms_can_be_nonzero_together_stay_apart(rule):
    """Sums of loaded values whose terms are not exclusive (a range of indices; eight indices a
    value, equalities whose constants repeat) keep their order: the four orders are four classes."""
    ks = [_compile(rule, b, w) for b, w in SPACE]
    assert all(check.level(k).startswith("v1") for k in ks), [check.level(k) for k in ks]
    assert len({check.signature(k) for k in ks}) == len(SPACE)


def test_planted_fault_exclusivity_not_checked_merges_a_wrong_pair(tmp_path):
    """A copied tree whose add of one-hot sums forgets to check that the terms' constants are
    distinct: the r // 2 == target sums merge, and the test above fails."""
    sys.path.insert(0, os.path.dirname(HERE))
    from mutants import pytest_fails_on_mutant
    pytest_fails_on_mutant(tmp_path, "src/bitorder/check/onehot.py",
                           "(a[0] != b[0] or not a[1].isdisjoint(b[1]))", "(a[0] != b[0])",
                           "tests/check/test_onehot.py::test_planted_fault_reads_the_copy_and_merges")


def test_planted_fault_reads_the_copy_and_merges():
    """(Run on the copy by the test above: prints where bitorder came from, then the check.)"""
    print(f"bitorder from {os.path.dirname(bitorder.__file__)}")
    test_sums_whose_terms_can_be_nonzero_together_stay_apart(2)


def test_add_memo_forgets_a_start_once_it_is_closed():
    """onehot.add memoises the sums it makes for a walk; a folded loop's SELF is a sum only while open_start holds it
    (loops.fold), so a sum made of it is not one once close_start ran (the memo emptied there)."""
    from bitorder.check import onehot
    onehot.reset()
    onehot.TERM["term"] = (("eq", 3), True)        # a term: its equality part and constant
    onehot.open_start("self")
    made = onehot.add("self", "term")
    assert made is not None and onehot.add("term", "self") == made
    onehot.close_start("self")
    assert onehot.add("self", "term") is None
    onehot.reset()


def test_planted_fault_add_memo_kept_past_close(tmp_path):
    """A copied tree whose close_start keeps add's memo: the sum of a closed SELF is still given."""
    sys.path.insert(0, os.path.dirname(HERE))
    from mutants import checker_test_fails_on_mutant
    checker_test_fails_on_mutant(
        tmp_path, "src/bitorder/check/onehot.py", "    del SUM[key]\n    _ADDED.clear()\n", "    del SUM[key]\n",
        "tests/check/test_onehot.py::test_add_memo_forgets_a_start_once_it_is_closed")
