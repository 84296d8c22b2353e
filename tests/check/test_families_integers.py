"""Integers over one symbolic thread (check/families/integers.py, docs/check-families.md step 1): every rule checked
against integer arithmetic at every thread of the block and several program indices, with planted faults from a
copied tree (a shift past the floor, an or without its disjointness test)."""
import pytest
from hypothesis import example, given, settings, strategies as st

from bitorder.check.families import integers as fi
from bitorder.check.poly import _norm
from bitorder.check.symbolic import Unsupported

from mutants import checker_test_fails_on_mutant

N = 64   # threads: bits t_0 .. t_5


def value(v, t: int, symbols: dict) -> int:
    """v in thread t with its symbols given values."""
    v = fi.at_thread(v, t)
    if v.__class__ is int:
        return v
    total = 0
    for m, c in v.items():
        for a in m:
            c *= symbols[a]
        total += c
    return total


# a form: some thread bits, each at a power-of-two coefficient, a constant, and perhaps ctaid_x times a constant
forms = st.builds(
    lambda picks, const, sym: _norm({**{(f"{fi.TBIT}{j}",): 1 << q for j, q in picks.items()}, (): const,
                                     **({("ctaid_x",): sym} if sym else {})}),
    st.dictionaries(st.integers(0, 5), st.integers(0, 12), max_size=6),
    st.integers(0, 300), st.sampled_from([0, 0, 1, 64, 256, 1024, 96, 768]))
symbols = st.fixed_dictionaries({"ctaid_x": st.integers(0, 5000)})


def opaque(v) -> bool:
    """Whether v is (or holds) an opaque atom: neither a thread bit nor a program index."""
    return v.__class__ is dict and any(m and not m[0].startswith((fi.TID, "ctaid_")) for m in v)


def agree(op, args, concrete, syms):
    out = fi.integer(op, args)
    if opaque(out):
        return False   # nothing claimed
    for t in range(N):
        assert value(out, t, syms) == concrete([value(a, t, syms) for a in args]), (op, args, out, t, syms)
    return True


@settings(max_examples=400, deadline=None)
@given(forms, st.integers(0, 12), symbols)
@example({(f"{fi.TBIT}5",): 32, ("ctaid_x",): 64}, 3, {"ctaid_x": 3})
@example({("ctaid_x",): 1}, 1, {"ctaid_x": 3})                                # a shift past the floor (planted)
@example({(f"{fi.TBIT}0",): 4, (f"{fi.TBIT}1",): 4}, 3, {"ctaid_x": 0})         # terms that carry (planted)
def test_shr_is_exact_where_it_claims(v, k, syms):
    agree("shr.u32", [v, k], lambda a: a[0] >> a[1], syms)


@settings(max_examples=400, deadline=None)
@given(forms, st.integers(0, 1 << 12), symbols)
def test_and_is_exact_where_it_claims(v, m, syms):
    agree("and.b32", [v, m], lambda a: a[0] & a[1], syms)


@settings(max_examples=400, deadline=None)
@given(forms, forms, symbols)
@example({(f"{fi.TBIT}0",): 1}, {(f"{fi.TBIT}1",): 1}, {"ctaid_x": 0})     # both at bit 0 over t_0 and t_1: a carry
@example({("ctaid_x",): 64}, {(f"{fi.TBIT}0",): 128}, {"ctaid_x": 2})         # a bit above the symbol's floor (planted)
def test_or_and_xor_are_exact_where_they_claim(a, b, syms):
    agree("or.b32", [a, b], lambda x: x[0] | x[1], syms)
    agree("xor.b32", [a, b], lambda x: x[0] ^ x[1], syms)


@settings(max_examples=400, deadline=None)
@given(forms, st.integers(0, 1 << 12), symbols)
@example({(f"{fi.TBIT}0",): 16, (f"{fi.TBIT}1",): 32, (f"{fi.TBIT}2",): 64}, 64, {"ctaid_x": 0})   # a swizzle's xor
def test_xor_with_a_constant_is_exact_where_it_claims(v, k, syms):
    agree("xor.b32", [v, k], lambda a: a[0] ^ a[1], syms)


@settings(max_examples=400, deadline=None)
@given(forms, st.integers(0, 12), st.integers(1, 8), symbols)
@example({(f"{fi.TBIT}{j}",): 1 << j for j in range(6)}, 3, 2, {"ctaid_x": 0})
def test_bit_field_extract_is_exact_where_it_claims(v, pos, n, syms):
    agree("bfe.u32", [v, pos, n], lambda a: (a[0] >> a[1]) & ((1 << a[2]) - 1), syms)


small = st.builds(lambda cs, c0: _norm({**{(f"{fi.TBIT}{j}",): c for j, c in cs.items()}, (): c0}),
                  st.dictionaries(st.integers(0, 5), st.integers(-300, 300), max_size=3), st.integers(-50, 50))


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(["and.b32", "or.b32", "xor.b32", "shr.u32", "shr.s32", "min.s32", "max.u32"]), small, small)
@example("and.b32", {(f"{fi.TBIT}0",): -1}, 192)        # (-t_0) & 192, as LLVM masks a negated lane bit
def test_an_op_over_few_thread_bits_is_tabulated_exactly(op, a, b):
    from bitorder.check.predicates import _concrete
    if op.startswith("shr"):
        b = fi.at_thread(b, 0) % 32 if b.__class__ is int else 3
    out = fi.integer(op, [a, b])
    if opaque(out):
        return
    for t in range(N):
        assert fi.at_thread(out, t) == _concrete(op, [fi.at_thread(a, t), fi.at_thread(b, t)]), (op, a, b, out, t)


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(["cvt.u32.u64", "cvt.s32.s64", "cvt.u64.u32", "cvt.s64.s32", "cvt.u16.u32", "mul.wide.s32",
                        "mad.wide.u32", "add.s16", "add.s32", "sub.s64"]),
       st.builds(lambda cs, c0: _norm({**{(f"{fi.TBIT}{j}",): c for j, c in cs.items()}, (): c0}),
                 st.dictionaries(st.integers(0, 5), st.integers(-(1 << 20), 1 << 20), max_size=6),
                 st.integers(-(1 << 33), 1 << 33)),
       st.integers(-(1 << 16), 1 << 16))
@example("cvt.u32.u64", {(): -2048, **{(f"{fi.TBIT}{j}",): 1 << j for j in range(6)}}, 0)   # t - 2048 taken to u32
def test_a_family_of_constants_wraps_as_the_walks_constants_do(op, v, k):
    """Where a family reads no symbol, each thread's concrete value is a constant, which the walk wraps (cvt, the
    operands of .wide and 16-bit ops): the family must give that constant at every thread."""
    args = [v] if op.startswith("cvt") else [v, k] if not op.startswith("mad") else [v, k, 7]
    out = fi.integer(op, args)
    if opaque(out):
        return
    for t in range(N):
        assert fi.at_thread(out, t) == fi.integer(op, [fi.at_thread(a, t) for a in args]), (op, v, out, t)


def test_the_rules_read_the_patterns_triton_emits():
    t = fi.thread_index(64)
    four_t = fi.integer("and.b32", [fi.integer("shl.b32", [t, 2]), 252])      # (tid << 2) & 252
    assert four_t == {(f"{fi.TBIT}{j}",): 4 << j for j in range(6)}
    index = fi.integer("or.b32", [four_t, {("ctaid_x",): 256}])               # | ctaid << 8
    assert index == {**four_t, ("ctaid_x",): 256}
    warp = fi.integer("and.b32", [fi.integer("shr.u32", [t, 3]), 4])          # (tid >> 3) & 4: 4 x the warp
    assert warp == {(f"{fi.TBIT}5",): 4}
    lane = fi.integer("and.b32", [t, 31])
    assert [fi.at_thread(lane, x) for x in (0, 31, 32, 63)] == [0, 31, 0, 31]
    # what is not exact is an atom: a shift past a program index's floor, or bits that may carry
    assert opaque(fi.integer("shr.u32", [index, 9]))
    assert opaque(fi.integer("and.b32", [index, 511])) and not opaque(fi.integer("and.b32", [index, 255]))
    assert opaque(fi.integer("or.b32", [{("ctaid_x",): 256}, {("ctaid_x",): 512}]))     # symbols on both sides
    # overlapping bits are read position by position: a swizzle's xor, an or of two lane fields
    swz = fi.integer("xor.b32", [fi.integer("and.b32", [four_t, 48]), fi.integer("shl.b32", [warp, 2])])
    assert not opaque(swz) and [fi.at_thread(swz, x) for x in (0, 4, 32, 36)] == [0, 16, 16, 0]
    assert fi.integer("or.b32", [t, t]) == t
    # boolean atoms are named by the function alone: a bit xored twice is gone, one xored back is the bit itself
    lanes01 = fi.integer("and.b32", [t, 3])
    assert fi.integer("xor.b32", [fi.integer("xor.b32", [lanes01, 1]), 1]) == lanes01
    assert fi.integer("xor.b32", [fi.integer("xor.b32", [lanes01, fi.integer("shr.u32", [lanes01, 1])]),
                                  fi.integer("shr.u32", [lanes01, 1])]) == lanes01
    with pytest.raises(Unsupported):            # a high half of constants: refused, as check/integers.py refuses it
        fi.integer("mul.hi.s32", [5, 7])


def test_planted_fault_a_shift_past_the_floor_is_caught(tmp_path):
    checker_test_fails_on_mutant(tmp_path, "src/bitorder/check/families/integers.py", "if lay is None or k > lay.floor:",
                                 "if lay is None:", "tests/check/test_families_integers.py::test_shr_is_exact_where_it_claims")


def test_planted_fault_an_xor_table_made_an_or_is_caught(tmp_path):
    checker_test_fails_on_mutant(tmp_path, "src/bitorder/check/families/integers.py", '"xor": int.__xor__}',
                                 '"xor": int.__or__}',
                                 "tests/check/test_families_integers.py::test_xor_with_a_constant_is_exact_where_it_claims")


def test_planted_fault_a_table_read_back_wrong_is_caught(tmp_path):
    checker_test_fails_on_mutant(tmp_path, "src/bitorder/check/families/integers.py",
                                 "coef[a] -= coef[a ^ (1 << i)]", "coef[a] -= 0",
                                 "tests/check/test_families_integers.py::test_an_op_over_few_thread_bits_is_tabulated_exactly")


def test_planted_fault_a_wrap_that_forgets_the_range_is_caught(tmp_path):
    checker_test_fails_on_mutant(tmp_path, "src/bitorder/check/families/integers.py",
                                 "    if (hi - floor) // span != k:\n        return None\n", "",
                                 "tests/check/test_families_integers.py::"
                                 "test_a_family_of_constants_wraps_as_the_walks_constants_do")


def test_planted_fault_a_layout_of_terms_that_carry_is_caught(tmp_path):
    checker_test_fails_on_mutant(tmp_path, "src/bitorder/check/families/integers.py", "if c <= 0 or held & c:",
                                 "if c <= 0:", "tests/check/test_families_integers.py::test_shr_is_exact_where_it_claims")


def test_planted_fault_symbols_met_by_bits_above_their_floor_are_caught(tmp_path):
    checker_test_fails_on_mutant(tmp_path, "src/bitorder/check/families/integers.py",
                                 "    if la.floor != _NO_FLOOR and (sum(lb.terms.values()) | lb.const) >> int(la.floor):\n"
                                 "        return None\n", "",
                                 "tests/check/test_families_integers.py::test_or_and_xor_are_exact_where_they_claim")

