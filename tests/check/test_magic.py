"""Division by a constant read back (check/magic.py): the exactness condition and the quotient's normal form checked
against integer arithmetic, each with a planted fault from a copied tree; and TorchInductor's index division merging
the configurations that lowered it differently."""
import dataclasses
import os
import random
import sys

import pytest
from hypothesis import example, given, settings, strategies as st

from bitorder.check import magic

from mutants import checker_test_fails_on_mutant

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "benchmarks"))


def _worst(c, bound):
    """The x below bound where a magic multiply errs first: the largest ones just below a multiple of c."""
    top = c * (bound // c) - 1
    return [x for x in (top, top - c, bound - 1, c - 1, 0) if 0 <= x < bound]


@settings(max_examples=400, deadline=None)
@given(st.integers(1, (1 << 32) - 1), st.integers(0, 31), st.sampled_from([1 << 31, 1 << 32]))
@example(613566757, 0, 1 << 32)     # ceil(2^32 / 7): e = 3, too large for every x (LLVM takes s = 3 and 33 bits)
@example(715827883, 7, 1 << 31)     # Inductor's x // 768 (mul.hi.s32, shr 7)
def test_a_divisor_it_reads_is_exact_for_every_x(m, s, bound):
    c = magic.divisor(m, s, bound)
    if c is None:
        return
    for x in _worst(c, bound) + [random.Random(m ^ s).randrange(bound) for _ in range(20)]:
        assert (x * m) >> (32 + s) == x // c, (m, s, c, x)


def test_the_magic_llvm_picks_reads_back_as_its_divisor():
    for c in (3, 5, 6, 7, 10, 12, 24, 96, 100, 768, 1000, 3072, 50257):
        s = (c - 1).bit_length()
        m = -(-(1 << (31 + s)) // c)          # a signed 32-bit index's magic with shift s - 1
        assert magic.divisor(m, s - 1, 1 << 31) in (c, None)
    assert magic.divisor(715827883, 7, 1 << 31) == 768


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(1, 4096), min_size=1, max_size=3), st.integers(0, 10_000), st.integers(2, 5000),
       st.lists(st.integers(0, 1000), min_size=3, max_size=3))
@example([256], 100, 96, [0, 0, 0])      # g = gcd(256, 96) = 32, not 256: 100 // 96 = 1
def test_the_rounded_constant_keeps_the_quotient(coefs, r, c, values):
    x = {(f"ctaid_{'xyz'[i]}",): k for i, k in enumerate(coefs)}
    x[()] = r
    y = magic.rounded(x, c)

    def value(p):
        return sum(k * (values["xyz".index(m[0][-1])] if m else 1) for m, k in p.items())
    assert value(x) // c == value(y) // c


def test_only_a_non_negative_index_is_read():
    assert magic.nonneg({("ctaid_x",): 256, (): 24}) and not magic.nonneg({("param:arg3",): 4})
    assert not magic.nonneg({("ctaid_x",): 256, (): -1})
    assert magic.product("mul.hi.s32", {("param:arg3",): 4}, 715827883) is None
    a = magic.product("mul.hi.s32", {("ctaid_x",): 256, (): 25}, 715827883)
    assert magic.shifted("shr.u32", a, 31) == 0                      # the quotient's sign bit
    assert magic.shifted("shr.u32", a, 7) == magic.quotient({("ctaid_x",): 256}, 768)
    assert magic.shifted("shr.u32", a, 6) is None or magic.shifted("shr.u32", a, 6) != magic.shifted("shr.u32", a, 7)
    u = magic.product("mul.hi.u32", {("ctaid_x",): 1}, 0xAAAAAAAB)     # x // 3 unsigned: its high half reaches bit 31
    assert magic.shifted("shr.u32", u, 1) == magic.quotient({("ctaid_x",): 1}, 3)
    assert magic.shifted("shr.s32", u, 1) is None                       # an arithmetic shift of it is not x // 3


def test_inductor_index_division_is_one_class_per_grid(monkeypatch):
    # gpt2_mlp's bias add (x % 768): the H200 shows one class per grid; the configurations' code divides by 768
    # with other vector widths, so the quotient's atoms differed (2026-12-03g: 9 classes over 4 true)
    pytest.importorskip("torch")
    import checker_gate
    from corpus import SPECS, space
    monkeypatch.setattr(magic, "ON", True)
    spec = dataclasses.replace(SPECS["inductor_gpt2_mlp_t8_poi2"], space=space({"XBLOCK": (256,)}, warps=(1, 2, 4),
                                                                                stages=(1,)))
    rows, skipped, _ = checker_gate.gate_kernel(spec, gpu=False, n_draws=0, sample=None, seed=1,
                                                how={"grid": True})
    assert not skipped and [r["classes"] for r in rows] == [1] and rows[0]["v1"] == 3
    monkeypatch.setattr(magic, "ON", False)
    rows, _, _ = checker_gate.gate_kernel(spec, gpu=False, n_draws=0, sample=None, seed=1, how={"grid": True})
    assert rows[0]["classes"] > 1


def test_planted_fault_an_exactness_bound_that_forgets_x_is_caught(tmp_path):
    checker_test_fails_on_mutant(tmp_path, "src/bitorder/check/magic.py", "(bound - 1) * e < p", "e < p",
                                 "tests/check/test_magic.py::test_a_divisor_it_reads_is_exact_for_every_x")


def test_planted_fault_a_rounding_that_forgets_the_divisor_is_caught(tmp_path):
    checker_test_fails_on_mutant(tmp_path, "src/bitorder/check/magic.py", "    g = c\n", "    g = 0\n",
                                 "tests/check/test_magic.py::test_the_rounded_constant_keeps_the_quotient")
