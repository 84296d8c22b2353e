"""16-bit data in the walk: f16x2 / bf16x2 arithmetic half by half (memory.packed_float), a 16-bit value sent
through a 32-bit shuffle and back (symbolic.EXTENDED, dataflow.bits_of_tree), and 16-bit scratch reused at
another width (test_dataflow). Each rule with a planted fault, built from a copied tree, that a test here catches."""
import os
import sys

from bitorder import check

from test_dataflow import ADDRESSES, kernel

HERE = os.path.dirname(os.path.abspath(__file__))
B16 = ".reg .b16 %rs<9>;\n.reg .pred"


def _k(body):
    return kernel(ADDRESSES + body).replace(".reg .pred", B16)


# two packed fp16 pairs added as f16x2, against the four halves loaded and added one by one; the
# spare upper half of a vectorized sum (LLVM packs a live half with a never-written one) is ignored
PACKED = _k("ld.global.b32 %r2, [%rd4];\nld.global.b32 %r3, [%rd4+128];\nadd.rn.f16x2 %r4, %r2, %r3;\n"
            "st.global.b32 [%rd5], %r4;")
HALVES = _k("ld.global.b16 %rs1, [%rd4];\nld.global.b16 %rs2, [%rd4+2];\nld.global.b16 %rs3, [%rd4+128];\n"
            "ld.global.b16 %rs4, [%rd4+130];\nadd.rn.f16 %rs5, %rs1, %rs3;\nadd.rn.f16 %rs6, %rs2, %rs4;\n"
            "mov.b32 %r4, {%rs5, %rs6};\nst.global.b32 [%rd5], %r4;")
CROSSED = _k("ld.global.b16 %rs1, [%rd4];\nld.global.b16 %rs2, [%rd4+2];\nld.global.b16 %rs3, [%rd4+128];\n"
             "ld.global.b16 %rs4, [%rd4+130];\nadd.rn.f16 %rs5, %rs1, %rs4;\nadd.rn.f16 %rs6, %rs2, %rs3;\n"
             "mov.b32 %r4, {%rs5, %rs6};\nst.global.b32 [%rd5], %r4;")
SPARE = _k("ld.global.b32 %r2, [%rd4];\nmov.b32 {_, %rs1}, %r2;\nmov.b32 %r3, {%rs1, %rs7};\n"
           "add.rn.f16x2 %r4, %r3, %r2;\nmov.b32 {%rs2, _}, %r4;\nst.global.b16 [%rd5], %rs2;")
SPARE_DIRECT = _k("ld.global.b16 %rs1, [%rd4];\nld.global.b16 %rs2, [%rd4+2];\nadd.rn.f16 %rs3, %rs2, %rs1;\n"
                  "st.global.b16 [%rd5], %rs3;")


def test_f16x2_arithmetic_is_its_two_halves():
    assert check.level(PACKED).startswith("v1") and check.equivalent(PACKED, HALVES)
    assert not check.equivalent(PACKED, CROSSED)


def test_a_spare_half_packed_with_garbage_does_not_taint_the_stored_half():
    assert check.level(SPARE).startswith("v1"), check.level(SPARE)
    assert check.equivalent(SPARE, SPARE_DIRECT)


# a 16-bit value widened to 32 bits, shuffled to the neighbour lane and narrowed back, then added: the
# partner's value itself (not an opaque integer); narrowed to 8 bits instead it is not the 16-bit value
SHUFFLED = _k("ld.global.b16 %rs1, [%rd4];\ncvt.u32.u16 %r5, %rs1;\nshfl.sync.bfly.b32 %r6, %r5, 1, 31, -1;\n"
              "cvt.u16.u32 %rs2, %r6;\nadd.rn.f16 %rs3, %rs1, %rs2;\nst.global.b16 [%rd5], %rs3;")
PARTNER = _k("ld.global.b16 %rs1, [%rd4];\nxor.b32 %r7, %r1, 1;\nmul.wide.u32 %rd6, %r7, 4;\nadd.s64 %rd7, %rd1, %rd6;\n"
             "ld.global.b16 %rs2, [%rd7];\nadd.rn.f16 %rs3, %rs1, %rs2;\nst.global.b16 [%rd5], %rs3;")
BYTE = _k("ld.global.b16 %rs1, [%rd4];\ncvt.u32.u16 %r5, %rs1;\ncvt.u8.u32 %rs2, %r5;\nst.global.b16 [%rd5], %rs2;")
WHOLE = _k("ld.global.b16 %rs1, [%rd4];\nst.global.b16 [%rd5], %rs1;")


def test_a_16_bit_value_through_a_32_bit_shuffle_is_the_partners_value():
    assert check.level(SHUFFLED).startswith("v1") and check.equivalent(SHUFFLED, PARTNER)


def test_narrowing_below_the_widened_width_is_not_the_value():
    assert not check.equivalent(BYTE, WHOLE)


def _planted(tmp_path, file, old, new, test):
    sys.path.insert(0, os.path.dirname(HERE))
    from mutants import checker_test_fails_on_mutant
    checker_test_fails_on_mutant(tmp_path, file, old, new, test if "::" in test else f"tests/check/test_packed.py::{test}")


def test_planted_fault_halves_crossed_fails(tmp_path):
    """packed_float reading the second operand's other half: the halves test must fail."""
    _planted(tmp_path, "src/bitorder/check/memory.py", "[self.subword(v, i, 2, 4) for v in vals]",
             "[self.subword(v, i if j == 0 else 1 - i, 2, 4) for j, v in enumerate(vals)]",
             "test_f16x2_arithmetic_is_its_two_halves")


def test_planted_fault_any_narrowing_undoes_a_widening_fails(tmp_path):
    """A truncation to 8 bits read as undoing a widening from 16: the byte test must fail."""
    _planted(tmp_path, "src/bitorder/check/integers.py", "narrow is not None and narrow[1] == sbits",
             "narrow is not None", "test_narrowing_below_the_widened_width_is_not_the_value")


def test_planted_fault_forgetting_a_word_without_the_race_check_fails(tmp_path):
    """_forget_word no longer asking whether the old word's writer is ordered: the race test must fail."""
    _planted(tmp_path, "src/bitorder/check/memory.py",
             '        old = self.smem.pop(k, None)\n        if old is not None and self.unordered(old[1], old[2], t):',
             '        old = self.smem.pop(k, None)\n        if False:',
             "tests/check/test_dataflow.py::test_a_wider_store_over_another_threads_word_without_a_barrier_is_a_race")


# two bf16 halves widened (cvt.u32.u16), packed byte by byte by prmt 0x5410 and unpacked again: LLVM's way of sending
# two halves through one 32-bit shuffle (pinned_loop_sum's 16-bit twins); with memory.BYTE_PARTS the halves are the
# loaded halves themselves, so the sum is the direct one; a swapped selector (0x1054) packs them the other way
PRMT = ("ld.global.b16 %rs1, [%rd4];\nld.global.b16 %rs2, [%rd4+2];\ncvt.u32.u16 %r5, %rs1;\ncvt.u32.u16 %r6, %rs2;\n"
        "prmt.b32 %r7, %r5, %r6, {sel};\nmov.b32 {{%rs3, %rs4}}, %r7;\nsub.rn.bf16 %rs5, %rs3, %rs4;\n"
        "st.global.b16 [%rd5], %rs5;")
PRMT_DIRECT = _k("ld.global.b16 %rs1, [%rd4];\nld.global.b16 %rs2, [%rd4+2];\nsub.rn.bf16 %rs5, %rs1, %rs2;\n"
                 "st.global.b16 [%rd5], %rs5;")


def test_halves_packed_byte_by_byte_are_the_halves(monkeypatch):
    from bitorder.check import memory
    monkeypatch.setattr(memory, "BYTE_PARTS", True)
    packed, swapped = _k(PRMT.format(sel="0x5410")), _k(PRMT.format(sel="0x1054"))
    assert check.level(packed).startswith("v1") and check.equivalent(packed, PRMT_DIRECT)
    assert not check.equivalent(swapped, PRMT_DIRECT)          # (b - a, not a - b)
    twice = _k(PRMT.format(sel="0x4410"))                      # b's low byte twice: not b
    assert not check.equivalent(twice, PRMT_DIRECT)
    monkeypatch.setattr(memory, "BYTE_PARTS", False)
    assert not check.equivalent(packed, PRMT_DIRECT)           # off: opaque byte parts, as before


def test_planted_fault_byte_parts_joined_without_checking_their_order_is_caught(tmp_path):
    from mutants import checker_test_fails_on_mutant
    checker_test_fails_on_mutant(tmp_path, "src/bitorder/check/memory.py", "x[1] != a + j or ", "",
                                 "tests/check/test_packed.py::test_halves_packed_byte_by_byte_are_the_halves")


def test_a_walks_answer_does_not_depend_on_the_facts_earlier_walks_left(monkeypatch):
    # 2026-12-04d call 5 classed one PTX text two ways in two gate workers: the table of what extension atoms widened
    # was emptied when it grew large, in the middle of a walk, so a byte part read back later missed its atom's fact.
    # It is emptied between walks now: a walk after many others gives a fresh walk's answer.
    from bitorder.check import dataflow, memory, symbolic
    from bitorder.check.ptx import parse
    monkeypatch.setattr(memory, "BYTE_PARTS", True)
    entry = parse(_k(PRMT.format(sel="0x5410")))[0]
    fresh = dataflow.signature(entry)
    symbolic.EXTENDED.clear()      # just below the size at which the table is emptied: this walk's atoms cross it
    symbolic.EXTENDED.update({f"earlier{i}": (0, 16, False) for i in range(99_999)})
    assert dataflow.signature(entry) == fresh


def test_planted_fault_facts_emptied_during_a_walk_are_caught(tmp_path):
    from mutants import checker_test_fails_on_mutant
    checker_test_fails_on_mutant(
        tmp_path, "src/bitorder/check/symbolic.py",
        "    EXTENDED[pkey(wide)] = (v, bits, signed)   # (emptied between walks only: dataflow._reset_tables)",
        "    if len(EXTENDED) > 100_000:\n        EXTENDED.clear()\n    EXTENDED[pkey(wide)] = (v, bits, signed)",
        "tests/check/test_packed.py::test_a_walks_answer_does_not_depend_on_the_facts_earlier_walks_left")
