"""Refusals read ahead from the text (check/ahead.py): where they fire the concrete walk refuses too, the answer
is the walk's (v0, the program text), and the walk is not run to find it."""
import glob
import importlib
import os
import sys

import pytest

from bitorder import check
from bitorder.check import ahead, dataflow

from test_dataflow import HEAD, kernel

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "data")

_SHARED = ("mov.u32 %r9, global_smem;\nshl.b32 %r10, %r1, 2;\nadd.s32 %r11, %r9, %r10;\n")
_MAX = "setp.gt.f32 %p1, %r2, %r3;\nselp.f32 %r4, %r2, %r3, %p1;\n"
_MUL = "mul.f32 %r4, %r2, %r3;\n"
CASES = {   # name: (body after HEAD: %r1 the thread index, %r2 and %r3 loaded floats, %rd5 its output; fires)
    "max stored": (_MAX + "st.global.b32 [%rd5], %r4;", True),
    "NaN-keeping max stored": ("setp.gt.f32 %p1, %r2, %r3;\nsetp.nan.f32 %p2, %r2, %r2;\n"
                               "selp.f32 %r5, %r2, %r3, %p2;\nselp.f32 %r4, %r2, %r5, %p1;\n"
                               "st.global.b32 [%rd5], %r4;", True),
    "max then an add": (_MAX + "add.f32 %r6, %r4, %r2;\nst.global.b32 [%rd5], %r6;", False),
    "max shuffled": (_MAX + "shfl.sync.bfly.b32 %r6, %r4, 1, 31, -1;\nst.global.b32 [%rd5], %r6;", True),
    "max through shared memory": (_MAX + _SHARED + "st.shared.b32 [%r11], %r4;\nbar.sync 0;\n"
                                  "ld.shared.b32 %r12, [%r9];\nst.global.b32 [%rd5], %r12;", True),
    "argmax's index through shared memory": (_MAX + "selp.b32 %r5, 0, 1, %p1;\n" + _SHARED +
                                             "st.shared.b32 [%r11], %r4;\nst.shared.b32 [%r11+128], %r5;\n"
                                             "bar.sync 0;\nld.shared.b32 %r12, [%r9+128];\n"
                                             "st.global.b32 [%rd5], %r12;", False),
    "a select on another comparison": ("setp.gt.f32 %p1, %r2, 0f00000000;\nselp.f32 %r4, %r2, %r3, %p1;\n"
                                       "st.global.b32 [%rd5], %r4;", False),
    "max read as bits": (_MAX + "and.b32 %r6, %r4, 2147483647;\nst.global.b32 [%rd5], %r6;", True),
    "max moved, compared as an integer": (_MAX + "mov.b32 %r6, %r4;\nsetp.lt.s32 %p2, %r6, 0;\n"
                                          "selp.f32 %r7, %r2, %r3, %p2;\nst.global.b32 [%rd5], %r7;", True),
    "max added, then read as bits": (_MAX + "add.f32 %r6, %r4, %r2;\nand.b32 %r7, %r6, 2147483647;\n"
                                     "st.global.b32 [%rd5], %r7;", False),
    "multiply added": (_MUL + "add.f32 %r5, %r4, %r2;\nst.global.b32 [%rd5], %r5;", True),
    "rounded multiply added": ("mul.rn.f32 %r4, %r2, %r3;\nadd.f32 %r5, %r4, %r2;\nst.global.b32 [%rd5], %r5;",
                               False),
    "multiply, rounded add": (_MUL + "add.rn.f32 %r5, %r4, %r2;\nst.global.b32 [%rd5], %r5;", False),
    "multiply picked by the thread index": (_MUL + "and.b32 %r6, %r1, 1;\nsetp.eq.b32 %p1, %r6, 0;\n"
                                            "selp.f32 %r7, %r4, %r2, %p1;\nadd.f32 %r8, %r7, %r3;\n"
                                            "st.global.b32 [%rd5], %r8;", True),
    "multiply picked by data": (_MUL + "setp.gt.f32 %p1, %r2, 0f00000000;\nselp.f32 %r7, %r4, %r2, %p1;\n"
                                "add.f32 %r8, %r7, %r3;\nst.global.b32 [%rd5], %r8;", False),
    "multiply shuffled": (_MUL + "shfl.sync.bfly.b32 %r6, %r4, 1, 31, -1;\nadd.f32 %r8, %r6, %r3;\n"
                          "st.global.b32 [%rd5], %r8;", True),
    "multiply negated": (_MUL + "neg.f32 %r6, %r4;\nadd.f32 %r8, %r6, %r3;\nst.global.b32 [%rd5], %r8;", True),
}


def _walk_refuses(text: str) -> bool:
    try:
        dataflow.roots(check.parse(text)[0])
    except dataflow.Unsupported:
        return True
    return False


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_refusal_read_ahead_is_one_the_walk_makes(name):
    body, fires = CASES[name]
    text = kernel(HEAD + body)
    why = ahead.refused(check.parse(text)[0])
    assert (why is not None) == fires, (name, why)
    if fires:
        assert _walk_refuses(text), name       # the walk itself (it never reads ahead) refuses it too
        assert check.signature(text).startswith("v0:") and check.level(text).endswith(f"({why})")


def test_the_stored_inductor_max_is_refused_without_walking(monkeypatch):
    """Inductor's online softmax max (stored PTX from the corpus): refused as the walk refuses it, and the walk is
    not called; with the read-ahead off, the walk finds the same refusal and the same signature."""
    print(f"bitorder from {os.path.dirname(check.__file__)}")
    text = open(os.path.join(DATA, "inductor_cross_entropy_t8_red0.ptx")).read()
    signature = importlib.import_module("bitorder.check.signature")
    monkeypatch.setattr(signature, "_MEMO", {})
    monkeypatch.setattr(signature, "_BY_TEXT", {})
    walked = []
    real = dataflow.walk
    monkeypatch.setattr(dataflow, "walk", lambda *a, **k: walked.append(1) or real(*a, **k))
    ahead_sig, ahead_why = check.signature(text), check.level(text)
    assert not walked and ahead.WHY in ahead_why
    monkeypatch.setattr(ahead, "ON", False)
    assert check.signature(text) == ahead_sig and ahead.WHY in check.level(text) and walked


def test_every_stored_ptx_it_refuses_the_walk_refuses():
    for path in sorted(glob.glob(os.path.join(DATA, "*.ptx"))):
        text = open(path).read()
        for entry in check.parse(text):
            if ahead.refused(entry) is not None:
                assert _walk_refuses(text), path


def test_planted_fault_shared_words_of_mixed_stores_marked(tmp_path):
    """A copied tree whose shared loads are marked where any store of the stretch is (not every one): the argmax's
    index is read as a payload-free max, and the case test fails."""
    sys.path.insert(0, os.path.dirname(HERE))
    from mutants import checker_test_fails_on_mutant
    checker_test_fails_on_mutant(
        tmp_path, "src/bitorder/check/ahead.py",
        "all(r in marked for st in seen for r in _REG.findall(st.operands[1]))",
        "any(r in marked for st in seen for r in _REG.findall(st.operands[1]))",
        "tests/check/test_ahead.py::test_a_refusal_read_ahead_is_one_the_walk_makes")


def test_planted_fault_float_instructions_read_as_bits(tmp_path):
    """A copied tree where a float instruction reading the max counts as reading its bits: the max added (a
    canonical NaN: no payload left to read) is refused, and the case test fails."""
    sys.path.insert(0, os.path.dirname(HERE))
    from mutants import checker_test_fails_on_mutant
    checker_test_fails_on_mutant(
        tmp_path, "src/bitorder/check/ahead.py", "            _is_float_op(op) or (base", "            (base",
        "tests/check/test_ahead.py::test_a_refusal_read_ahead_is_one_the_walk_makes")


def test_planted_fault_any_select_carries_a_multiply(tmp_path):
    """A copied tree where a select on any predicate passes a multiply on: one picked by data (the walk's select
    node, no multiply) is read as added, and the case test fails."""
    sys.path.insert(0, os.path.dirname(HERE))
    from mutants import checker_test_fails_on_mutant
    checker_test_fails_on_mutant(
        tmp_path, "src/bitorder/check/ahead.py",
        "            return ins.operands[3] in thread[0]",
        "            return True",
        "tests/check/test_ahead.py::test_a_refusal_read_ahead_is_one_the_walk_makes")
