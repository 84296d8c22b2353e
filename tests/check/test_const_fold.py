"""Loops of a constant trip count, folded (check/loops.py's fold_constant; on with loops.CONST): the
turn's comparisons decided over the trip count (bits.turn_decides, brute force), what merges and what
stays apart against the walk that follows every turn, what falls back to that walk, and a planted
fault (the fold keyed without its trip count) that the known answers catch."""
import pytest
import triton
import triton.language as tl
from hypothesis import given, settings, strategies as st

import bitorder
from bitorder import check
from bitorder.check import loops, storefold
from bitorder.check.bits import LOOP_T, turn_bound, turn_decides

from fold_helpers import ORDER, at, classes, const_pick, looped, side
from mutants import checker_test_fails_on_mutant


@pytest.fixture(autouse=True)
def const_on(monkeypatch):
    monkeypatch.setattr(loops, "ON", True)
    monkeypatch.setattr(loops, "CONST", True)


# -- the turn's comparisons ---------------------------------------------------------------------------
_SIDE = side([-1024, -7, -1, 1, 2, 3, 512, 2048])


@settings(max_examples=400, deadline=None)
@given(st.lists(st.tuples(_SIDE, _SIDE, st.sampled_from(sorted(ORDER)), st.sampled_from(["s32", "u32", "s64"])),
                min_size=2, max_size=12), st.integers(1, 80))
def test_a_turn_comparison_is_exact_and_one_text_per_truth(cases, turns):
    # over T = 0 .. turns - 1 the answer holds exactly where the comparison does (a bool where every turn
    # agrees), and two comparisons true on the same turns get one predicate, whatever their arithmetic
    seen = {}
    for a, b, cmp, ty in cases:
        if not (isinstance(a, dict) or isinstance(b, dict)):
            continue
        r = turn_decides(f"setp.{cmp}.{ty}", cmp, a, b, turns)
        if r is None:
            continue
        signed, width = ty[0] == "s", int(ty[1:])
        lo, hi = (-(1 << (width - 1)), 1 << (width - 1)) if signed else (0, 1 << width)
        assert all(lo <= at(p, t) < hi for p in (a, b) for t in (0, turns - 1))
        truth = tuple(ORDER[cmp](at(a, t), at(b, t)) for t in range(turns))
        if isinstance(r, bool):
            assert set(truth) == {r}
            continue
        assert len(set(truth)) == 2
        assert seen.setdefault(truth, r) == r
        assert seen.get(truth) == r
    texts = {}
    for truth, r in seen.items():
        assert texts.setdefault(str(r), truth) == truth     # different truths: different predicates


def test_the_back_edge_gives_the_trip_count():
    # Inductor's r0_numel 32,000 over R0_BLOCK 512: the back edge is taken while 512 T < 31,488 (63 turns)
    assert turn_bound(turn_decides("setp.lt.u64", "lt", {LOOP_T: 512}, 31488, 20001)) == 62
    assert turn_decides("setp.lt.u64", "lt", {LOOP_T: 512, (): 300}, 32000, 63) is not True   # the last turn masks
    assert turn_decides("setp.lt.u64", "lt", {LOOP_T: 512, (): 4}, 32000, 63) is True
    assert turn_decides("setp.lt.u32", "lt", {LOOP_T: 1 << 30}, 5, 8) is None   # leaves u32: left symbolic


# -- kernels -------------------------------------------------------------------------------------------
@triton.jit
def const_row_sum(x_ptr, y_ptr, stride, C: tl.constexpr, BC: tl.constexpr):
    row = tl.program_id(0)
    acc = tl.zeros([BC], tl.float32)
    for c0 in range(0, C, BC):
        cols = c0 + tl.arange(0, BC)
        acc += tl.load(x_ptr + row * stride + cols, mask=cols < C, other=0.0)
    tl.store(y_ptr + row, tl.sum(acc, 0))


@triton.jit
def const_online_lse(x_ptr, y_ptr, C: tl.constexpr, BC: tl.constexpr):
    row = tl.program_id(0)
    m = tl.full([BC], -1e30, tl.float32)
    s = tl.zeros([BC], tl.float32)
    for c0 in range(0, C, BC):
        cols = c0 + tl.arange(0, BC)
        x = tl.load(x_ptr + row * C + cols, mask=cols < C, other=-1e30)
        m_new = tl.maximum(m, x)
        s = s * tl.exp(m - m_new) + tl.exp(x - m_new)
        m = m_new
    mx = tl.max(m, 0)
    tl.store(y_ptr + row, tl.sum(s * tl.exp(m - mx), 0))


@triton.jit
def const_two_max(x_ptr, y_ptr, C: tl.constexpr, BC: tl.constexpr):
    row = tl.program_id(0)
    a = tl.full([BC], -1e30, tl.float32)
    b = tl.full([BC], -1e30, tl.float32)
    for c0 in range(0, C, BC):
        cols = c0 + tl.arange(0, BC)
        x = tl.load(x_ptr + row * C + cols, mask=cols < C, other=-1e30)
        a_new = tl.maximum(a, x)
        b = tl.maximum(b, x) + (a_new - a) * 0.5
        a = a_new
    tl.store(y_ptr + row, tl.sum(a + b, 0))


_SIG2 = {"x_ptr": "*fp32", "y_ptr": "*fp32"}
_SIG3 = {"x_ptr": "*fp32", "t_ptr": "*i64", "y_ptr": "*fp32"}


def _build(fn, c, bc, w, s=1):
    sig = _SIG3 if fn is const_pick else dict(_SIG2, stride="i32") if fn is const_row_sum else _SIG2
    return bitorder.compile(fn, "sm90", signature=sig, constexprs={"C": c, "BC": bc}, num_warps=w, num_stages=s)


def test_a_long_constant_loop_is_folded_instead_of_refused():
    # 1,000 turns: followed turn by turn, the walk passes its instruction limit and falls back to the
    # program text; folded, it is walked three times and classed by its trees (trips.py counts the
    # foldable back edge as not taken, so it does not refuse the walk beforehand)
    k = _build(const_row_sum, 128_000, 128, 1)
    with pytest.MonkeyPatch.context() as m:
        m.setattr(loops, "CONST", False)
        assert check.level(k).startswith("v0: program text (more than")
    assert check.level(k).startswith("v1"), check.level(k)


def test_folded_classes_are_the_followed_ones_where_both_walk():
    # 32 turns, every warp count and two stage counts: the same partition folded and followed
    ks = [_build(const_row_sum, 8192, 256, w, s) for w in (1, 2, 4) for s in (1, 2)]
    assert looped(*ks)
    followed, lv0 = classes(ks, loops, "CONST", False)
    folded, lv1 = classes(ks, loops, "CONST", True)
    assert set(lv0) == set(lv1) == {"v1"}
    assert folded == followed
    assert not check.equivalent(_build(const_row_sum, 8192, 128, 1), _build(const_row_sum, 8192, 256, 1))


def test_the_trip_count_stays_in_the_key():
    # the same chunk, the same update (no turn masked, the row stride a parameter), 32 turns and 64: other sums
    a, b = _build(const_row_sum, 8192, 256, 2), _build(const_row_sum, 16384, 256, 2)
    assert looped(a, b) and check.level(a).startswith("v1") and check.level(b).startswith("v1")
    assert not check.equivalent(a, b)
    # and 32 turns against 33, the last one masked
    a, b = _build(const_row_sum, 8192, 256, 2), _build(const_row_sum, 8192 + 64, 256, 2)
    assert looped(a, b) and not check.equivalent(a, b)


def test_a_one_hot_loop_is_followed_turn_by_turn(monkeypatch):
    # the turn compared with a loaded target: onehot.py sums the followed loop exactly (any order), so
    # the fold gives way and the signature is the followed walk's (element folds off: storefold.py folds
    # it by element instead, test_store_fold.py)
    monkeypatch.setattr(storefold, "STORES", False)
    ks = [_build(const_pick, 8192, bc, w) for bc in (256, 512) for w in (1, 2)]
    assert looped(*ks)
    followed, _ = classes(ks, loops, "CONST", False)
    with pytest.MonkeyPatch.context() as m:
        m.setattr(loops, "CONST", False)
        before = [check.signature(k) for k in ks]
    assert [check.signature(k) for k in ks] == before
    assert classes(ks, loops, "CONST", True)[0] == followed


def _folds_to_the_followed_classes(fn):
    """Every warp and stage count of fn: classed by v1 folded and followed, the same partition, and the fold
    took the loop (other trees than the followed walk's)."""
    ks = [_build(fn, 8192, 256, w, s) for w in (1, 2, 4) for s in (1, 2)]
    assert looped(*ks)
    followed, lv0 = classes(ks, loops, "CONST", False)
    folded, lv1 = classes(ks, loops, "CONST", True)
    assert set(lv0) == set(lv1) == {"v1"}, (lv0, lv1)
    assert folded == followed
    with pytest.MonkeyPatch.context() as m:
        m.setattr(loops, "CONST", False)
        followed_signature = check.signature(ks[0])
    assert check.signature(ks[0]) != followed_signature


def test_coupled_accumulators_fold_together():
    # online softmax: s reads m. Folded as one state, the classes are the followed walk's
    _folds_to_the_followed_classes(const_online_lse)


def test_coupled_accumulators_that_start_equal_are_told_apart_by_their_updates():
    # a and b both start at -1e30 and b reads a: ordered by their updates, folded, the followed classes
    _folds_to_the_followed_classes(const_two_max)


@pytest.mark.interpreted_only
def test_planted_fault_a_fold_keyed_without_its_trip_count_merges_two_sums(tmp_path):
    checker_test_fails_on_mutant(tmp_path, "src/bitorder/check/loops.py",
                                 'trip = f"turns:{self.turns}" if constant else short("trip:" + text)',
                                 'trip = "turns" if constant else short("trip:" + text)',
                                 "tests/check/test_const_fold.py::test_the_trip_count_stays_in_the_key")
