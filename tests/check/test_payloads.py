"""NaN payloads ptxas may change (check/payloads.py): a float select that reaches an output unchanged
is refused, since ptxas may lower it to FMNMX.NAN (canonical NaN) in one program and keep the select
(the NaN's own payload) in its twin; arithmetic after it ends the doubt."""
import os
import sys

import pytest
import triton
import triton.language as tl

import bitorder
from bitorder import check
from bitorder.check import ahead

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "data")


def test_the_h200_pair_with_one_dependence_tree_and_two_nan_payloads_is_not_merged():
    """The PTX the H200's JIT built for Inductor's cross-entropy max (XBLOCK 2, R0_BLOCK 512, 4 and 8
    warps): one dependence tree, but ptxas made the 8-warp one's first turn FMNMX.NAN, and on NaN
    draws it returned 0x7fffffff where the other returned 0x7fc00000 (benchmarks/results/
    2026-12-03e-gpu call 2). Both are declined, so they are not one class."""
    print(f"bitorder from {os.path.dirname(bitorder.__file__)}")
    a, b = (open(os.path.join(DATA, f"inductor_ce_t8_red0_x2_r512_w{w}_h200.ptx")).read() for w in (4, 8))
    grid = {"grid_x": 16}
    assert check.signature(a, grid) != check.signature(b, grid)
    assert "ptxas may lower to a min or max" in check.level(a, grid)


@triton.jit
def _clamp(x_ptr, y_ptr, R: tl.constexpr, BLOCK: tl.constexpr, FORM: tl.constexpr):
    i = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + i, mask=i < R, other=0.0)
    if FORM == 0:
        y = tl.where((x > 1.0) | (x != x), x, 1.0)  # a NaN-keeping max (Inductor's): stored as it is
    elif FORM == 1:
        y = tl.where((x > 1.0) | (x != x), x, 1.0) + x     # arithmetic after it: NaNs canonical
    else:
        y = x                                      # a masked load (an integer predicate): bits kept
    tl.store(y_ptr + i, y, mask=i < R)


def _level(form):
    return check.level(bitorder.compile(_clamp, "sm90", num_warps=1, signature={"x_ptr": "*fp32", "y_ptr": "*fp32"},
                                        constexprs={"R": 100, "BLOCK": 128, "FORM": form}))


@pytest.mark.parametrize("read_ahead", [False, True])
def test_a_float_select_stored_as_it_is_is_declined_and_arithmetic_after_it_is_walked(monkeypatch, read_ahead):
    """By the walk at the store, and read ahead from the text (check/ahead.py) alike."""
    monkeypatch.setattr(ahead, "ON", read_ahead)
    assert "ptxas may lower to a min or max" in _level(0)
    assert _level(1).startswith("v1") and _level(2).startswith("v1")


def test_planted_fault_payloads_not_checked_merges_the_h200_pair(tmp_path, monkeypatch):
    """A copied tree whose store forgets payload-free values: the stored pair merges again (the read-ahead off, which
    would refuse the pair before the walk: check/ahead.py)."""
    monkeypatch.setenv("BITORDER_AHEAD", "0")
    sys.path.insert(0, os.path.dirname(HERE))
    from mutants import pytest_fails_on_mutant
    pytest_fails_on_mutant(tmp_path, "src/bitorder/check/memory.py",
                           "        if self.nodes.nanish and self.fnode(v) in self.nodes.nanish:",
                           "        if False:",
                           "tests/check/test_payloads.py::test_the_h200_pair_with_one_dependence_tree_and_two_nan_payloads_is_not_merged")


def test_a_predicate_s_memoised_name_is_its_text_s_name():
    """poly.pname (what predicates and payloads name a predicate by) is short(str(p)) for every form: a
    comparison, an and/or over named parts, one long enough to be hashed, a bool, and a tuple holding a
    polynomial (unhashable: named, not memoised); asked twice, the same text."""
    from bitorder.check.poly import pname, short
    long_key = "k" * 120
    forms = [("fcmp", "setp.gt.f32", "a" * 24, "b" * 24), ("and", ("x", "y")), ("cmpm", 32, "eq", long_key),
             ("cmp", "setp.lt.s32", long_key, long_key), True, False, ("cmp0", "eq", {("x",): 1})]
    for p in forms:
        assert pname(p) == short(str(p)) and pname(p) == short(str(p))
