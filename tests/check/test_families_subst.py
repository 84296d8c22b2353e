"""Thread-bit substitution (check/families/subst.py) and the names' truth tables, driven directly:
- a family under a substitution, put at thread t, is the family put at the thread the substitution reads
  (sigma(t)), keys and all: here a butterfly Red whose operand is a select on a mask of the very lane bit it binds
  (no bound variable can stand in that mask, so it becomes the node of its two halves);
- forms._reads (whether a truth table depends on an input, by two big-integer operations) agrees with its
  definition (hypothesis).
A planted fault from a copied tree (the halves both taken at the bit's 0) makes the first fail."""
from hypothesis import given, strategies as st

from bitorder.check.families import floats as ff
from bitorder.check.families import integers as fi
from bitorder.check.families import predicates as fp
from bitorder.check.families import subst as fsub
from bitorder.check.families.forms import _reads

from mutants import checker_test_fails_on_mutant

_N = 64


def _leaf(base: int):
    """A load at base + 4 t (t the thread index, 6 bits)."""
    return ff.Leaf({(): base, **{(f"{fi.TBIT}{j}",): 4 << j for j in range(6)}}, 4)


def test_a_reduction_over_a_masked_lane_bit_under_a_substitution_is_the_family_at_the_substituted_thread():
    lane0 = fp._mask(fi.half(_N, 0, True), _N)                 # threads whose bit 0 is set
    red = ff.Red("add.f32", ff.Select(lane0, _leaf(0), _leaf(1024)), 0)
    for sigma in [(0, 2, 1, 3, 4, 5), (0, -1, 2, 3, 5, 4), (0, 1, -2, 3, 4, 1)]:
        moved = fsub.family(red, sigma, _N, {})
        assert moved.__class__ is ff.Node        # (the two halves: a mask reads the bit the Red binds)
        mine, theirs = {}, {}
        for t in range(_N):
            assert ff.key_at(moved, t, mine) == ff.key_at(red, fsub._image(sigma, t), theirs)


@given(st.integers(1, 8).flatmap(lambda w: st.tuples(st.just(w), st.integers(0, w - 1),
                                                      st.integers(0, (1 << (1 << w)) - 1))))
def test_reads_agrees_with_its_definition(case):
    width, k, bits = case
    slow = any((bits >> i & 1) != (bits >> (i | 1 << k) & 1) for i in range(1 << width) if not i >> k & 1)
    assert _reads(bits, k, width) == slow


def test_planted_fault_a_reductions_halves_both_at_zero_is_caught(tmp_path):
    checker_test_fails_on_mutant(tmp_path, "src/bitorder/check/families/subst.py",
                                 "memo) for c in (-1, -2))", "memo) for c in (-1, -1))",
                                 "tests/check/test_families_subst.py::"
                                 "test_a_reduction_over_a_masked_lane_bit_under_a_substitution_is_the_family_at_the_"
                                 "substituted_thread")
