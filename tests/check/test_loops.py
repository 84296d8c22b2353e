"""Loops over a runtime bound, folded (check/loops.py; on with loops.ON): what merges, what stays
apart, what is refused, and a planted fault (the fold keyed without its update) that the
known answers catch."""
import os
import sys

import pytest

import bitorder
from bitorder import check
from bitorder.check import dataflow, loops

from mutants import checker_test_fails_on_mutant
from test_dataflow import ADDRESSES, kernel

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "benchmarks"))
from corpus.reductions import loop_assoc, row_sum_loop  # noqa: E402
from pinned_kernels import loop_sum  # noqa: E402   (the pinned suite's: acc += tl.sum(chunk, pinned=PINNED))


@pytest.fixture(autouse=True)
def fold_on(monkeypatch):
    monkeypatch.setattr(loops, "ON", True)


_SIG = {"x_ptr": "*fp32", "y_ptr": "*fp32", "R": "i32", "C": "i32"}


def _loop_sum(w, pinned, bc=256, s=1):
    return bitorder.compile(loop_sum, "sm90", signature=_SIG, constexprs={"BR": 1, "BC": bc, "PINNED": pinned},
                            num_warps=w, num_stages=s)


def _row_sum_loop(w, bc=256, s=1):
    return bitorder.compile(row_sum_loop, "sm90", signature=_SIG, constexprs={"BR": 1, "BC": bc}, num_warps=w,
                            num_stages=s)


def test_pinned_chunk_sums_merge_over_warps_free_ones_do_not():
    # the H200 (2026-12-03g): pinned loop sums are one class per grid and BC whatever the warps;
    # free-order chunk sums split by num_warps
    pinned = [_loop_sum(1, True), _loop_sum(2, True), _loop_sum(4, True), _loop_sum(8, True)]
    free = [_loop_sum(1, False), _loop_sum(2, False), _loop_sum(4, False)]
    assert all(check.level(k).startswith("v1") for k in pinned + free), [check.level(k) for k in pinned + free]
    assert check.partition(pinned) == [[0, 1, 2, 3]]
    assert check.partition(free) == [[0], [1], [2]]
    assert not check.equivalent(pinned[0], free[0])
    with pytest.MonkeyPatch.context() as m:     # off: the program text, as before
        m.setattr(loops, "ON", False)
        assert check.level(pinned[0]).startswith("v0")


def test_the_chunk_stays_in_the_key():
    # the paper's scalar fold keeps its chunk: BC 128 and 256 add the same elements in other orders
    assert not check.equivalent(_loop_sum(1, True, bc=128), _loop_sum(1, True, bc=256))
    assert not check.equivalent(_row_sum_loop(1, bc=128), _row_sum_loop(1, bc=256))


def test_an_update_that_associates_otherwise_is_another_class():
    # the corpus's loop_assoc: (acc + a) + b and acc + (a + b) differ in their fold's update alone (the
    # same init, trip count and code after the loop); each element is its own thread's, so warps merge
    sig = {"x_ptr": "*fp32", "y_ptr": "*fp32", "N": "i32", "C": "i32"}
    ks = [bitorder.compile(loop_assoc, "sm90", signature=sig, constexprs={"BLOCK": 256, "ORDER": o}, num_warps=w,
                           num_stages=1) for o in (0, 1) for w in (1, 4)]
    assert all(check.level(k).startswith("v1") for k in ks)
    assert check.partition(ks) == [[0, 1], [2, 3]]


def test_num_stages_twins_merge_and_warps_split_a_carried_tile():
    a, b, c = _row_sum_loop(2, s=1), _row_sum_loop(2, s=3), _row_sum_loop(4, s=1)
    assert check.level(a).startswith("v1")
    assert check.equivalent(a, b) and not check.equivalent(a, c)


# hand-written loops: acc (%r10) over turns of one element a thread, %r11 the turn's first column
# (the same in every thread), C (k_param_2) the runtime bound; the loop entered only when C > 0
LOOP = ADDRESSES + """ld.param.u32 %r20, [k_param_2];
setp.lt.s32 %p1, %r20, 1;
mov.b32 %r10, 0f00000000;
@%p1 bra $L__exit;
mov.u32 %r11, 0;
$L__top:
add.s32 %r19, %r11, %r1;
mul.wide.s32 %rd6, %r19, 4;
add.s64 %rd7, %rd1, %rd6;
ld.global.b32 %r12, [%rd7];
{update}
add.s32 %r11, %r11, {step};
setp.lt.s32 %p2, %r11, %r20;
@%p2 bra $L__top;
$L__exit:
st.global.b32 [%rd5], %r10;"""
ADD = "add.rn.f32 %r10, %r10, %r12;"


def loop(update=ADD, step=32, **kw):
    return kernel(LOOP.replace("{update}", update).replace("{step}", str(step)), **kw)


def test_a_folded_loop_is_its_init_update_and_trip_count():
    base = loop()
    assert check.level(base).startswith("v1")
    renamed = loop().replace("%r10", "%r30").replace("%r12", "%r31")
    assert check.equivalent(base, renamed)
    assert not check.equivalent(base, loop(step=64))                            # another trip count
    assert not check.equivalent(base, loop("add.rn.f32 %r10, %r12, %r10;\nadd.rn.f32 %r10, %r10, %r12;"))
    assert not check.equivalent(base, loop().replace("mov.b32 %r10, 0f00000000", "mov.b32 %r10, 0f80000000"))
    assert not check.equivalent(base, loop().replace("setp.lt.s32 %p2", "setp.le.s32 %p2"))
    assert check.equivalent(base, loop("add.rn.f32 %r10, %r12, %r10;"))          # (add commutes)


@pytest.mark.parametrize("body,why", [
    # two accumulators, one reading the other (an online softmax's sum reads its running max)
    (LOOP.replace("{update}", "max.f32 %r13, %r13, %r12;\nadd.rn.f32 %r10, %r10, %r13;").replace("{step}", "32")
     .replace("mov.b32 %r10, 0f00000000;", "mov.b32 %r10, 0f00000000;\nmov.b32 %r13, 0f00000000;"),
     "depend on each other"),
    # two accumulators that trade values each turn (a = b + x, b = a): each reads the other's header value, which
    # a dependence read from the previous turn's results instead would take for its own
    (LOOP.replace("{update}", "add.rn.f32 %r14, %r13, %r12;\nmov.b32 %r13, %r10;\nmov.b32 %r10, %r14;")
     .replace("{step}", "32").replace("mov.b32 %r10, 0f00000000;", "ld.global.b32 %r10, [%rd4+128];\nld.global.b32 %r13, [%rd4+256];"),
     "depend on each other"),
    # an accumulator read from another thread (a shuffle of the carried value)
    (LOOP.replace("{update}", "shfl.sync.bfly.b32 %r13, %r10, 1, 31, -1;\nadd.rn.f32 %r10, %r13, %r12;")
     .replace("{step}", "32"), "move between threads"),
    # a counter that doubles
    (LOOP.replace("{update}", ADD).replace("add.s32 %r11, %r11, {step};", "shl.b32 %r11, %r11, 1;")
     .replace("mov.u32 %r11, 0;", "mov.u32 %r11, 1;"), "constant step"),
    # a trip count that differs between threads
    (LOOP.replace("{update}", ADD).replace("{step}", "32").replace("setp.lt.s32 %p2, %r11, %r20;",
                                                                   "setp.lt.s32 %p2, %r11, %r20;\n"
                                                                   "setp.lt.s32 %p3, %r1, 5;\nand.pred %p2, %p2, %p3;"),
     "differs between threads"),
    # an unrounded multiply carried around the loop: ptxas may contract it with the next turn's add
    (LOOP.replace("{update}", "add.rn.f32 %r14, %r10, %r12;\nmul.f32 %r10, %r14, %r12;").replace("{step}", "32"),
     "unrounded multiply"),
    # a temporary read after the loop: a value equal to nothing there
    (LOOP.replace("{update}", ADD).replace("{step}", "32").replace("st.global.b32 [%rd5], %r10;",
                                                                   "st.global.b32 [%rd5], %r12;"),
     "never written"),
    # a shared word the previous turn wrote, read before this turn writes it
    (LOOP.replace("{update}", "mov.u32 %r15, global_smem;\nshl.b32 %r16, %r1, 2;\nadd.s32 %r17, %r15, %r16;\n"
                  "ld.shared.b32 %r18, [%r17];\nadd.rn.f32 %r10, %r10, %r18;\nst.shared.b32 [%r17], %r12;")
     .replace("{step}", "32"), "never written"),
    # a predicate the skipped code sets, guarding a store after it: never written where the loop is skipped
    (LOOP.replace("{update}", ADD).replace("{step}", "32").replace("mov.u32 %r11, 0;", "mov.u32 %r11, 0;\n"
                                                                   "setp.lt.s32 %p5, %r1, 16;")
     .replace("st.global.b32 [%rd5], %r10;", "@%p5 st.global.b32 [%rd5], %r10;"), "never written"),
    # a shared address that moves with the turn
    (LOOP.replace("{update}", "mov.u32 %r15, global_smem;\nshl.b32 %r16, %r19, 2;\nadd.s32 %r17, %r15, %r16;\n"
                  "st.shared.b32 [%r17], %r12;\nld.shared.b32 %r18, [%r17];\nadd.rn.f32 %r10, %r10, %r18;")
     .replace("{step}", "32"), "depend on the turn"),
])
def test_what_the_fold_cannot_decide_it_refuses(body, why):
    from bitorder.check.ptx import parse
    entry = parse(kernel(body))
    entry = entry[0] if isinstance(entry, list) else entry
    with pytest.raises(dataflow.Unsupported, match=why):
        dataflow.signature(entry)


def test_the_loop_kernels_of_the_gemm_merge_fold():
    # merge_kernel (the GEMM's split-K merge) loops over PARTS: folded, it is a tree now
    from bitorder.gemm.kernels import merge_kernel
    sig = {"part_ptr": "*fp32", "out_ptr": "*fp16", "bias_ptr": "*fp16", "n_elem": "i32", "PARTS": "i32",
           "stride_part": "i64", "N": "i32"}
    ks = [bitorder.compile(merge_kernel, "sm90", signature=sig, constexprs={"BLOCK": 1024, "ROUND_EACH": False,
                           "BIAS_MODE": 0}, num_warps=w) for w in (4, 8)]
    assert all(check.level(k).startswith("v1") for k in ks), [check.level(k) for k in ks]
    assert check.equivalent(*ks)     # an elementwise fold over parts: the warps do not enter it


def test_planted_fault_a_fold_keyed_without_its_update_merges_the_two_orders(tmp_path):
    # from a copied tree (tests/mutants.py): fold(init, trip) without its update F, so loops with one
    # init and one trip count are one class; loop_assoc's two orders must then merge, and the test fail
    checker_test_fails_on_mutant(
        tmp_path, "src/bitorder/check/loops.py", 'self.nodes.make("fold", (i, f), trip)',
        'self.nodes.make("fold", (i,), trip)',
        "tests/check/test_loops.py::test_an_update_that_associates_otherwise_is_another_class")


def test_planted_fault_a_dependence_pass_that_starts_from_the_last_turn_is_caught(tmp_path):
    # from a copied tree: _carried's second pass starting from the first pass's results (the defect this
    # session's review found): the two trading accumulators above then look self-dependent and are folded
    checker_test_fails_on_mutant(
        tmp_path, "src/bitorder/check/loops.py", "        deps = {c: {c: False} for c in carried}     # register",
        "        deps = deps if second else {c: {c: False} for c in carried}     # register",
        "tests/check/test_loops.py::test_what_the_fold_cannot_decide_it_refuses")
