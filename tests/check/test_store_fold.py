"""Loops of a constant trip count that store, and one-hot sums, folded keyed by element (check/storefold.py;
on with storefold.STORES): the per-lane comparisons (bits.range_decides, brute force), what merges and what
stays apart against the walk that follows every turn, what falls back to that walk, two known PTX answers of
TorchInductor's cross-entropy backward, and two planted faults (masks decided over other elements than the segment's; one-hot
terms keyed without their term) that the known answers catch."""
import os
import subprocess
import sys

import pytest
import triton
import triton.language as tl
from hypothesis import given, settings, strategies as st

import bitorder
from bitorder import check
from bitorder.check import dataflow, loops, storefold
from bitorder.check.bits import range_decides

from fold_helpers import ORDER, at, classes, const_pick, looped, side, skipped_pick
from mutants import checker_test_fails_on_mutant

DATA = os.path.join(os.path.dirname(__file__), "data")


@pytest.fixture(autouse=True)
def stores_on(monkeypatch):
    monkeypatch.setattr(loops, "ON", True)
    monkeypatch.setattr(loops, "CONST", True)
    monkeypatch.setattr(storefold, "STORES", True)


# -- an element's comparisons over the elements of one lane ------------------------------------------
_SIDE = side([-4, -1, 1, 2, 4, 512])


@settings(max_examples=400, deadline=None)
@given(_SIDE, _SIDE, st.sampled_from(sorted(ORDER)), st.sampled_from(["s32", "u32", "s64"]),
       st.integers(-40000, 40000), st.integers(1, 3000))
def test_an_element_comparison_is_decided_only_where_every_element_agrees(a, b, cmp, ty, lo, n):
    # over u = lo .. lo + n - 1: True or False exactly where the comparison is, else None (never a predicate,
    # whose threshold would be the lane's); decided wherever both sides stay inside the type
    if not (isinstance(a, dict) or isinstance(b, dict)):
        return
    r = range_decides(f"setp.{cmp}.{ty}", cmp, a, b, lo, n)
    assert r is None or isinstance(r, bool)
    signed, width = ty[0] == "s", int(ty[1:])
    low, high = (-(1 << (width - 1)), 1 << (width - 1)) if signed else (0, 1 << width)
    inside = all(low <= at(p, u) < high for p in (a, b) for u in (lo, lo + n - 1))
    truth = {ORDER[cmp](at(a, u), at(b, u)) for u in range(lo, lo + n)}
    if r is not None:
        assert inside and truth == {r}
    elif inside and len(truth) == 1 and cmp in ("lt", "le", "gt", "ge", "lo", "ls", "hi", "hs"):
        pytest.fail(f"an order comparison every element agrees on left undecided: {a} {cmp} {b} over {lo}+{n}")


# -- kernels -------------------------------------------------------------------------------------------
@triton.jit
def const_center(x_ptr, y_ptr, C: tl.constexpr, BC: tl.constexpr):
    row = tl.program_id(0)
    acc = tl.zeros([BC], tl.float32)
    for c0 in range(0, C, BC):
        cols = c0 + tl.arange(0, BC)
        acc += tl.load(x_ptr + row * C + cols, mask=cols < C, other=0.0)
    mean = tl.sum(acc, 0) / C
    for c0 in range(0, C, BC):
        cols = c0 + tl.arange(0, BC)
        x = tl.load(x_ptr + row * C + cols, mask=cols < C, other=0.0)
        tl.store(y_ptr + row * C + cols, x - mean, mask=cols < C)


@triton.jit
def const_map(x_ptr, y_ptr, C: tl.constexpr, BC: tl.constexpr, SCALE: tl.constexpr, SHIFT: tl.constexpr,
              MASKED: tl.constexpr):
    """y = SCALE x[i + SHIFT]; masked where i + SHIFT passes the row (else the next row's first is read)."""
    row = tl.program_id(0)
    for c0 in range(0, C, BC):
        cols = c0 + tl.arange(0, BC)
        if MASKED:
            x = tl.load(x_ptr + row * C + cols + SHIFT, mask=cols + SHIFT < C, other=0.0)
        else:
            x = tl.load(x_ptr + row * C + cols + SHIFT)
        tl.store(y_ptr + row * C + cols, x * SCALE, mask=cols < C)


@triton.jit
def const_in_place(y_ptr, C: tl.constexpr, BC: tl.constexpr):
    row = tl.program_id(0)
    for c0 in range(0, C, BC):
        cols = c0 + tl.arange(0, BC)
        y = tl.load(y_ptr + row * C + cols, mask=cols < C, other=0.0)
        tl.store(y_ptr + row * C + cols, y * 2.0, mask=cols < C)


_SIG = {"x_ptr": "*fp32", "y_ptr": "*fp32"}


def _roots(k) -> dict:
    """The walk's roots of a compiled kernel or a PTX text."""
    return dataflow.roots(check.parse(getattr(k, "ptx", k))[0])


def _center(c, bc, w, s=1):
    return bitorder.compile(const_center, "sm90", signature=_SIG, constexprs={"C": c, "BC": bc}, num_warps=w,
                            num_stages=s)


def _map(bc, w, scale=2.0, shift=0, masked=True, c=8192):
    return bitorder.compile(const_map, "sm90", signature=_SIG, num_warps=w,
                            constexprs={"C": c, "BC": bc, "SCALE": scale, "SHIFT": shift, "MASKED": masked})


def _pick(c, bc, w, scale=1.0):
    return bitorder.compile(const_pick, "sm90", signature={**_SIG, "t_ptr": "*i64"}, num_warps=w,
                            constexprs={"C": c, "BC": bc, "SCALE": scale})


def test_a_storing_loop_folds_to_one_root_per_template():
    # y = x - mean over 8,192 columns: 32 turns of 256 stored as one template over u = 0 .. 8191
    k = _center(8192, 256, 2)
    assert looped(k)
    r = _roots(k)
    assert list(r) == [key for key in r if key.endswith(", u in 0-8191")] and len(r) == 1, list(r)[:3]
    with pytest.MonkeyPatch.context() as m:
        m.setattr(storefold, "STORES", False)
        assert len(_roots(k)) == 8192     # followed: one root an element


def test_folded_classes_are_the_followed_ones_where_both_walk():
    # every chunk width, warp and stage count of the map: one function of the element, one class folded and
    # followed; the centring: the followed classes (its sum's order is the chunk's and the warps')
    maps = [_map(bc, w) for bc in (256, 512, 1024) for w in (1, 2, 4)]
    centers = [_center(8192, bc, w, s) for bc in (256, 512) for w in (1, 2, 4) for s in (1, 2)]
    assert looped(*maps, *centers)
    for ks in (maps, centers):
        followed, lv0 = classes(ks, storefold, "STORES", False)
        folded, lv1 = classes(ks, storefold, "STORES", True)
        assert set(lv0) == set(lv1) == {"v1"}, (lv0, lv1)
        assert folded == followed
    assert len(classes(maps, storefold, "STORES", True)[0]) == 1


def test_a_mask_that_holds_on_a_lane_elements_is_true_there():
    # the last turn of 8,192 - 64 columns is partial: lanes past its end store one turn fewer, their masks True
    # on the elements they store, so every chunk width and warp count gives one template (one class)
    ks = [_map(bc, w, c=8192 - 64) for bc in (256, 512, 1024) for w in (1, 4)]
    assert looped(*ks)
    folded, levels = classes(ks, storefold, "STORES", True)
    assert len(folded) == 1 and set(levels) == {"v1"}
    assert all(len(_roots(k)) == 1 for k in ks)


def test_what_a_lane_stores_stays_in_the_key():
    # the value (3x against 2x), the element it reads (x[i + 1] against x[i]), and the mask on the last element
    # that x[i + 1] passes the row at (0 there against the next row's first): its lane's mask is decided over
    # the elements of its own segment (the planted fault decides it over the lane's first ones)
    base, tripled = _map(256, 2), _map(256, 2, scale=3.0)
    shifted, unmasked = _map(256, 2, shift=1), _map(256, 2, shift=1, masked=False)
    ks = (base, tripled, shifted, unmasked)
    assert looped(*ks) and all(check.level(k).startswith("v1") for k in ks)
    assert [len(_roots(k)) for k in ks] == [1, 1, 2, 1]    # (the lane of element 255 + 256 t: its own template)
    assert check.partition(ks) == [[0], [1], [2], [3]]
    assert not check.equivalent(_center(8192, 256, 2), _center(8192 + 256, 256, 2))


def test_a_one_hot_sum_folds_keyed_by_element():
    # the pick over 8,192 columns: every chunk width and warp count one class, folded as followed, each folded (its
    # sum a node made from its terms); the scale and the row's length stay in the key
    ks = [_pick(8192, bc, w) for bc in (256, 512, 1024) for w in (1, 2, 4)]
    assert looped(*ks)
    followed, lv0 = classes(ks, storefold, "STORES", False)
    folded, lv1 = classes(ks, storefold, "STORES", True)
    assert set(lv0) == set(lv1) == {"v1"}, (lv0, lv1)
    assert folded == followed == [list(range(9))]
    with pytest.MonkeyPatch.context() as m:
        m.setattr(storefold, "STORES", False)
        assert check.signature(ks[0]) != _folded_signature(ks[0])
    assert not check.equivalent(_pick(8192, 256, 2), _pick(8192, 256, 2, scale=2.0))
    assert not check.equivalent(_pick(8192, 256, 2), _pick(8192 - 64, 256, 2))


def test_a_one_hot_sum_with_a_partial_last_turn_is_one_class_folded():
    # 8,192 - 64 columns: the lanes past the row's end add where(i == target, 0, 0) on the last turn. Folded,
    # the segment of that turn adds a zero, and the nine sum x[target] alike (at most one term is not a zero:
    # any order gives its bits). Followed, that term is selp(p, 0, 0) of the bit patterns: an atom before
    # 2026-12-05d (the sum not one-hot, nine classes), a zero since, whatever the switch: one class too
    ks = [_pick(8192 - 64, bc, w) for bc in (256, 512, 1024) for w in (1, 2, 4)]
    assert looped(*ks)
    followed, _ = classes(ks, storefold, "STORES", False)
    folded, levels = classes(ks, storefold, "STORES", True)
    assert set(levels) == {"v1"} and folded == [list(range(9))]
    assert followed == [list(range(9))]


def test_a_fold_leaves_self_a_leaf_for_the_rest_of_the_walk():
    # a one-hot fold reads SELF as a sum's start (onehot.SUM) only while it folds: however the fold ends (folded
    # here), a later fold of the same walk keys its update by SELF the leaf, whatever loop came first
    from bitorder.check import onehot
    from bitorder.check.ptx import parse
    from bitorder.check.symbolic import leaf_key
    for k in (_pick(8192, 256, 2), _pick(8192 - 64, 256, 2)):
        dataflow.walk(parse(k.ptx)[0])
        assert onehot.SUM and leaf_key("fold:self") not in onehot.SUM


def _skipped(bc, w, scale=1.0, guard=True):
    return bitorder.compile(skipped_pick, "sm90", signature={**_SIG, "t_ptr": "*i64", "n_rows": "i32"}, num_warps=w,
                            constexprs={"C": 8192, "BC": bc, "SCALE": scale, "GUARD": guard})


def test_a_one_hot_sum_inside_a_skipped_branch_folds_keyed_by_element():
    # the pick under `if row < n_rows`: the loop sits in code a branch on a runtime bound skips (the walk's skip), as
    # TorchInductor's cross-entropy backward's does. Folded there too (2026-12-05i; before, followed turn by turn):
    # every chunk width and warp count one class, as followed; the branch stays in the key (rows past n_rows sum
    # nothing: the unguarded pick differs), and so does the scale
    ks = [_skipped(bc, w) for bc in (256, 512, 1024) for w in (1, 2, 4)]
    assert looped(*ks)
    seen = []
    real = dataflow._Block.fold_onehot

    def spy(self, *a, **kw):
        seen.append(self.skip is not None)
        return real(self, *a, **kw)
    with pytest.MonkeyPatch.context() as m:
        m.setattr(dataflow._Block, "fold_onehot", spy)
        folded, lv1 = classes(ks, storefold, "STORES", True)
    assert seen == [True] * len(ks)       # each walk folded its sum inside the skip
    followed, lv0 = classes(ks, storefold, "STORES", False)
    assert set(lv0) == set(lv1) == {"v1"}, (lv0, lv1)
    assert folded == followed == [list(range(9))]
    assert not check.equivalent(ks[0], _skipped(256, 2, guard=False))
    assert not check.equivalent(ks[0], _skipped(256, 2, scale=2.0))


@pytest.mark.interpreted_only
def test_planted_fault_a_skip_joined_without_its_branch_merges_the_guarded_pick(tmp_path):
    # at the skip's join, every register the skipped code wrote taken as that code left it (the branch forgotten):
    # the guarded pick merges with the unguarded one
    checker_test_fails_on_mutant(tmp_path, "src/bitorder/check/loops.py",
                                 "else select(g, o, v)", "else v",
                                 "tests/check/test_store_fold.py::"
                                 "test_a_one_hot_sum_inside_a_skipped_branch_folds_keyed_by_element")


def _folded_signature(k):
    with pytest.MonkeyPatch.context() as m:
        m.setattr(storefold, "STORES", True)
        return check.signature(k)


def test_a_loop_that_loads_what_it_stores_is_followed():
    # y = 2y in place: a later turn could read an earlier turn's store, so the loop is followed as before
    k = bitorder.compile(const_in_place, "sm90", signature={"y_ptr": "*fp32"}, constexprs={"C": 8192, "BC": 256},
                         num_warps=2)
    assert looped(k)
    with pytest.MonkeyPatch.context() as m:
        m.setattr(storefold, "STORES", False)
        followed = check.signature(k), check.level(k)
    assert (check.signature(k), check.level(k)) == followed


def test_inductor_cross_entropy_backward_known_answers():
    # TorchInductor's nll_loss backward (r0_numel 32,000, captured on the H200): R0_BLOCK 512 over 2 warps and
    # 2,048 over 8, XBLOCK 1. Both store one template over u = 0 .. 31,999 (and follow their one-hot sum): the
    # same bits on the H200 (benchmarks/results/2026-12-05b-gpu), one class here
    a, b = (open(os.path.join(DATA, f"inductor_cross_entropy_t8_red0_bwd_{n}.ptx")).read() for n in ("r512w2", "r2048w8"))
    assert check.level(a).startswith("v1") and check.level(b).startswith("v1")
    assert check.equivalent(a, b)
    assert [k.rsplit(", u in ", 1)[1] for k in _roots(a)] == ["0-31999"]


@pytest.mark.interpreted_only
def test_planted_fault_one_hot_terms_keyed_without_their_term_merge_two_picks(tmp_path):
    # each element's term keyed by its equality alone: x and 2x at the target read alike
    checker_test_fails_on_mutant(tmp_path, "src/bitorder/check/storefold.py",
                                 "entries.extend((at(u), guards, term) for u in us)",
                                 "entries.extend((at(u), guards, '') for u in us)",
                                 "tests/check/test_store_fold.py::test_a_one_hot_sum_folds_keyed_by_element")


@pytest.mark.interpreted_only
def test_planted_fault_masks_decided_over_other_elements_merge_two_maps(tmp_path):
    # a segment's comparisons decided over the lane's first elements, not the segment's own:
    # the mask of x[i + 1] reads as True on the last element too, and the masked map merges with the unmasked
    checker_test_fails_on_mutant(tmp_path, "src/bitorder/check/storefold.py",
                                 "(first + step * t0, step * (t1 - t0 - 1) + 1), (first, step)",
                                 "(first, step * (t1 - t0 - 1) + 1), (first, step)",
                                 "tests/check/test_store_fold.py::test_what_a_lane_stores_stays_in_the_key")


def _walk_2_both_ways(ks):
    """Each kernel's roots with walk 2 in all threads at once and thread by thread; the spans _run_lanes ran (t0, t1,
    how many threads split, how many ran) and the threads walked alone, at once."""
    spans, alone = [], []
    real, real_alone = dataflow._Block._run_lanes, dataflow._Block._lane_run

    def spy(self, runs, sl, counters, t0, t1, starts):
        split = real(self, runs, sl, counters, t0, t1, starts)
        spans.append((t0, t1, len(split), len(runs)))
        return split

    def spy_alone(self, t, *a):
        alone.append(t)
        return real_alone(self, t, *a)
    out = []
    for k in ks:
        with pytest.MonkeyPatch.context() as m:
            m.setattr(dataflow._Block, "_run_lanes", spy)
            m.setattr(dataflow._Block, "_lane_run", spy_alone)
            at_once = _roots(k)
        with pytest.MonkeyPatch.context() as m:
            m.setattr(storefold, "AT_ONCE", False)
            out.append((at_once, _roots(k)))
    return out, spans, alone


def _walk_2_kernels():
    ks = [_map(256, 2, c=8192 - 64), _map(1024, 4, shift=1), _center(8192, 512, 4), _pick(8192 - 64, 512, 2),
          _skipped(1024, 1)]
    assert looped(*ks)
    return ks + [open(os.path.join(DATA, "inductor_cross_entropy_t8_red0_bwd_r512w2.ptx")).read()]


def test_walk_2_in_all_threads_at_once_gives_the_per_thread_roots():
    # the lanes of every thread walked an instruction at a time (2026-12-06), the comparisons each with its
    # thread's own elements: every root and its tree as thread by thread, on stores and one-hot sums, with partial
    # last turns (comparisons that split into segments) and TorchInductor's backward
    roots, _, _ = _walk_2_both_ways(_walk_2_kernels())
    for at_once, by_thread in roots:
        assert at_once == by_thread


@pytest.mark.interpreted_only
def test_walk_2_at_once_walks_segments_at_once_where_some_or_all_threads_split():
    # (spies: the compiled walk's calls do not go through the class's attributes) the kernels above reach every
    # path of _lane_spans: whole spans, and segments in all threads at once both where every thread split and
    # (since 2026-12-06b) where only some did; no thread is walked alone
    _, spans, alone = _walk_2_both_ways(_walk_2_kernels())
    whole = [(k, n) for t0, t1, k, n in spans if t0 == 0]
    assert any(t0 > 0 for t0, _, _, _ in spans)
    assert any(k == n for k, n in whole) and any(0 < k < n for k, n in whole)
    assert not alone


@pytest.mark.interpreted_only
def test_lanes_after_a_split_walk_their_segments_alone():
    # (2026-12-07g) once a lane of a fold has split, the lanes after it walk their segments without the run over every
    # turn: two runs a lane where three were made, with the roots of the walk thread by thread (the test above)
    lanes = []      # (an earlier lane of the fold split, the runs this lane made)
    real_spans, real_run = dataflow._Block._lane_spans, dataflow._Block._run_lanes

    def spy_spans(self, *a):
        lanes.append([self.fold_split, 0])
        yield from real_spans(self, *a)

    def spy_run(self, *a):
        lanes[-1][1] += 1
        return real_run(self, *a)
    with pytest.MonkeyPatch.context() as m:
        m.setattr(dataflow._Block, "_lane_spans", spy_spans)
        m.setattr(dataflow._Block, "_run_lanes", spy_run)
        _roots(open(os.path.join(DATA, "inductor_cross_entropy_t8_red0_bwd_r512w2.ptx")).read())
    after = [runs for seen, runs in lanes if seen]
    assert after and all(runs == 2 for runs in after)
    assert 3 in [runs for seen, runs in lanes if not seen]      # the first lane that split: all turns, then each segment


@pytest.mark.interpreted_only
def test_planted_fault_lanes_after_a_split_skip_a_segment(tmp_path):
    # the lanes after a split walk every segment but the first (every turn but a partial last one): its elements'
    # stores go missing from the roots
    checker_test_fails_on_mutant(tmp_path, "src/bitorder/check/storefold.py",
                                 "            split = {t for t, _, _ in runs}\n",
                                 "            split = {t for t, _, _ in runs}\n            segments = segments[1:]\n",
                                 "tests/check/test_store_fold.py::test_walk_2_in_all_threads_at_once_gives_the_per_thread_roots")


@pytest.mark.interpreted_only
def test_planted_fault_walk_2_comparisons_read_another_threads_lane(tmp_path):
    # every instruction through the all-thread handlers: a comparison is decided over the elements of the last
    # thread's lane, not its own
    checker_test_fails_on_mutant(tmp_path, "src/bitorder/check/storefold.py",
                                 'return ins.base == "setp" and not _float_cmp(ins.opcode) or',
                                 'return False and',
                                 "tests/check/test_store_fold.py::test_walk_2_in_all_threads_at_once_gives_the_per_thread_roots")


def test_the_element_folds_are_on_by_default_and_the_switch_turns_them_off():
    # GPU-gated 2026-12-05d (benchmarks/results/2026-12-05d-gpu): on unless BITORDER_FOLD_STORES=0, and never
    # without the constant-trip fold they hand their loops from
    def stores(**env):
        e = {k: v for k, v in os.environ.items() if not k.startswith("BITORDER_FOLD")}
        out = subprocess.run([sys.executable, "-c", "from bitorder.check import storefold; print(storefold.STORES)"],
                             env={**e, **env}, capture_output=True, text=True, check=True)
        return out.stdout.strip()
    assert stores() == "True"
    assert stores(BITORDER_FOLD_STORES="0") == "False"
    assert stores(BITORDER_FOLD_CONST="0") == "False"
