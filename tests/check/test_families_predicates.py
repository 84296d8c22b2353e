"""Integer predicates over one symbolic thread (check/families/predicates.py, docs/check-families.md step 1): a
comparison or combination of families, put at every thread, is the concrete walk's own predicate there; a planted
fault from a copied tree (a mask read in the wrong thread order) is caught."""
from hypothesis import example, given, settings, strategies as st

from bitorder.check.families import integers as fi
from bitorder.check.families import predicates as fp
from bitorder.check.poly import _norm
from bitorder.check.predicates import _pred
from bitorder.check.symbolic import _itype, _wrap

from mutants import checker_test_fails_on_mutant

N = 64   # threads: bits t_0 .. t_5
# thread-bit forms with any coefficients, and laid-out ones with perhaps a program index
small = st.builds(lambda cs, c0: _norm({**{(f"{fi.TBIT}{j}",): c for j, c in cs.items()}, (): c0}),
                  st.dictionaries(st.integers(0, 5), st.integers(-300, 300), max_size=3), st.integers(-50, 50))
forms = st.builds(
    lambda picks, const, sym: _norm({**{(f"{fi.TBIT}{j}",): 1 << q for j, q in picks.items()}, (): const,
                                     **({("ctaid_x",): sym} if sym else {})}),
    st.dictionaries(st.integers(0, 5), st.integers(0, 12), max_size=6),
    st.integers(0, 300), st.sampled_from([0, 0, 1, 64, 256, 1024, 96, 768]))

CMPS = ["setp.lt.s32", "setp.le.u32", "setp.gt.s32", "setp.ge.u32", "setp.eq.s32", "setp.ne.b32", "setp.lt.u32"]


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(CMPS), small, small, st.sampled_from(CMPS), forms, st.integers(0, 400),
       st.sampled_from(["and", "or", "xor"]))
@example("setp.lt.u32", {(f"{fi.TBIT}{j}",): 1 << j for j in range(6)}, 2, "setp.eq.s32", {(f"{fi.TBIT}0",): 1}, 0,
         "and")                                                   # (tid & 63) < 2 and lane bit 0 clear
def test_a_predicate_family_is_the_walks_predicate_at_every_thread(op, a, b, op2, c, d, base):
    from bitorder.check.bits import int_form
    p, q = fp.compare(op, a, b, N), fp.compare(op2, c, d, N)
    r, nq = fp.combine(base, [p, q], N), fp.combine("not", [q], N)
    for t in range(N):
        at = [fi.at_thread(x, t) for x in (a, b, c, d)]
        want = [int_form(o, o.split(".")[1], x, y) if x.__class__ is dict or y.__class__ is dict else
                fp._ORDER[o.split(".")[1]](_wrap(x, *_itype(o)), _wrap(y, *_itype(o)))
                for o, x, y in ((op, at[0], at[1]), (op2, at[2], at[3]))]
        assert fp.at_thread(p, t) == want[0] and fp.at_thread(q, t) == want[1], (op, a, b, op2, c, d, t)
        assert fp.at_thread(r, t) == _pred(base, want) and fp.at_thread(nq, t) == _pred("not", [want[1]])


def test_masks_of_the_thread_index_are_computed_once():
    t = fi.thread_index(64)
    first_two = fp.compare("setp.lt.u32", fi.integer("and.b32", [t, 63]), 2, 64)
    assert first_two == fp.Mask(0b11, 64)
    lane0 = fp.compare("setp.eq.b32", fi.integer("and.b32", [t, 31]), 0, 64)
    assert fp.combine("and", [first_two, lane0], 64) == fp.Mask(0b1, 64)
    assert fp.compare("setp.lt.u32", t, 64, 64) is True and fp.combine("not", [True], 64) is False
    bound = fp.compare("setp.lt.s32", fi.integer("or.b32", [fi.integer("shl.b32", [t, 2]), {("ctaid_x",): 256}]),
                       {("param:arg2",): 1}, 64)
    assert isinstance(bound, fp.Each)       # reads a symbol: the walk's own form, thread by thread


def test_planted_fault_a_mask_read_in_the_wrong_thread_order_is_caught(tmp_path):
    checker_test_fails_on_mutant(tmp_path, "src/bitorder/check/families/predicates.py", "bits |= 1 << t",
                                 "bits |= 1 << (n - 1 - t)", "tests/check/test_families_predicates.py::"
                                 "test_a_predicate_family_is_the_walks_predicate_at_every_thread")
