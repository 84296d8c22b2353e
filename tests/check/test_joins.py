"""Max trees as joins (symbolic._JOIN): max.f16 and max.bf16 join as max.f32 does, a widened 16-bit join is the
f32 join of its widened members (Nodes._widen: LLVM narrows an f32 max of widened halves into a half max; the bf16
one marked by its all-NaN value), joins of
different opcodes are not flattened into each other, and a 16-bit constant is its bit pattern however ptxas wrote it.
Each rule with a planted fault, built from a copied tree, that a test here catches. The hardware facts they rest on
are benchmarks/max_join_probe.py's."""
import os
import sys

from bitorder import check

from test_dataflow import ADDRESSES, kernel

HERE = os.path.dirname(os.path.abspath(__file__))
B16 = ".reg .b16 %rs<9>;\n.reg .f32 %f<9>;\n.reg .pred"
LOADS = "ld.global.b16 %rs1, [%rd4];\nld.global.b16 %rs2, [%rd4+64];\nld.global.b16 %rs3, [%rd4+128];\n"


def _k(body):
    return kernel(ADDRESSES + LOADS + body + "\nst.global.f32 [%rd5], %f8;").replace(".reg .pred", B16)


def _narrow(t="f16", m="max", cvt=None):
    """cvt(max16(max16(a, b), c)): the whole max in 16 bits, widened once."""
    return _k(f"{m}.{t} %rs4, %rs1, %rs2;\n{m}.{t} %rs5, %rs4, %rs3;\ncvt.f32.{cvt or t} %f8, %rs5;")


def _mixed(t="f16"):
    """max.f32(cvt(max16(a, c)), cvt(b)): part in 16 bits, part in 32, another grouping."""
    return _k(f"max.{t} %rs4, %rs3, %rs1;\ncvt.f32.{t} %f1, %rs4;\ncvt.f32.{t} %f2, %rs2;\nmax.f32 %f8, %f2, %f1;")


def _wide(t="f16", m="max.f32"):
    """max.f32 over the three widened loads."""
    return _k(f"cvt.f32.{t} %f1, %rs1;\ncvt.f32.{t} %f2, %rs2;\ncvt.f32.{t} %f3, %rs3;\n"
              f"{m} %f4, %f1, %f2;\nmax.f32 %f8, %f4, %f3;")


def test_a_widened_16_bit_max_is_the_f32_max_of_its_widened_members():
    progs = [_narrow("f16"), _mixed("f16"), _wide("f16")]
    assert all(check.level(p).startswith("v1") for p in progs), [check.level(p) for p in progs]
    assert check.partition(progs) == [[0, 1, 2]]


def test_a_widened_bf16_max_stored_as_it_is_keeps_its_nan():
    # cvt.f32.bf16 of two NaNs' max is 0x7FFF0000, max.f32 of them 0x7FFFFFFF (max_join_probe.py, 2026-12-03g):
    # the widened bf16 join stored as it is stays apart; under a max.f32 it is that join's (the NaN is max.f32's)
    progs = [_narrow("bf16"), _mixed("bf16"), _wide("bf16")]
    assert all(check.level(p).startswith("v1") for p in progs), [check.level(p) for p in progs]
    assert check.partition(progs) == [[0], [1, 2]]


def test_the_fold_keeps_the_opcode_and_the_conversion():
    # a min is no max; f16 bits widened as bf16 are another value; an f16 max is not a bf16 one
    assert not check.equivalent(_narrow("f16", "min"), _wide("f16"))
    assert not check.equivalent(_narrow("f16", cvt="bf16"), _wide("bf16"))
    assert not check.equivalent(_narrow("bf16", cvt="f16"), _wide("f16"))


def test_joins_of_different_opcodes_are_not_flattened_together():
    # max.ftz.f32 flushes subnormals: a tree with one inside is not the plain max over the same members
    assert not check.equivalent(_wide("f16", "max.ftz.f32"), _wide("f16"))


# the masked load's other value, -inf in f16, written as a signed 16-bit constant or as its pattern
def _masked(const):
    return kernel(ADDRESSES + f"setp.lt.u32 %p1, %r1, 20;\nmov.b16 %rs2, {const};\nmov.u16 %rs1, %rs2;\n"
                  "@%p1 ld.global.b16 %rs1, [%rd4];\ncvt.f32.f16 %f8, %rs1;\nst.global.f32 [%rd5], %f8;"
                  ).replace(".reg .pred", B16)


def test_a_16_bit_constant_is_its_bit_pattern():
    assert check.level(_masked(-1024)).startswith("v1")
    assert check.equivalent(_masked(-1024), _masked(64512))
    assert not check.equivalent(_masked(-1024), _masked(-1023))


def test_a_16_bit_constant_in_index_arithmetic_is_its_signed_value():
    # mov.b16 keeps -1 as 0xFFFF; an add.s16 of a symbolic index with it is still that index - 1 once widened
    def k(const, off):
        return kernel(ADDRESSES + f"mov.u32 %r5, %ctaid.x;\ncvt.u16.u32 %rs1, %r5;\nmov.b16 %rs2, {const};\n"
                      "add.s16 %rs3, %rs1, %rs2;\ncvt.s32.s16 %r4, %rs3;\nmul.wide.s32 %rd6, %r4, 4;\n"
                      f"add.s64 %rd7, %rd1, %rd6;\nld.global.f32 %f1, [%rd7+{off}];\nst.global.f32 [%rd5], %f1;"
                      ).replace(".reg .pred", B16)
    assert check.level(k(-1, 4)).startswith("v1"), check.level(k(-1, 4))
    assert check.equivalent(k(-1, 4), k(0, 0)) and check.equivalent(k(65535, 4), k(0, 0))
    assert not check.equivalent(k(-1, 0), k(0, 0))


def _abs(t, form, widen=True):
    """A half's absolute value as abs.<t> or as and.b16 0x7FFF, widened and stored as f32 or stored as it is."""
    op = f"abs.{t} %rs4, %rs1;" if form == "abs" else "and.b16 %rs4, %rs1, 32767;"
    tail = f"cvt.f32.{t} %f8, %rs4;" if widen else "mov.b32 %f8, {%rs4, %rs4};"
    return _k(op + "\n" + tail)


def test_a_widened_f16_abs_is_its_sign_cleared_widened():
    # cvt.f32.f16 makes every NaN canonical, so abs and the mask agree once widened (max_join_probe.py, 2026-12-03g)
    assert check.level(_abs("f16", "and")).startswith("v1")
    assert check.equivalent(_abs("f16", "abs"), _abs("f16", "and"))


def test_abs_and_the_mask_stay_apart_where_a_nan_tells_them_apart():
    # abs of a NaN is the canonical NaN, the mask keeps its payload: unwidened, or widened as bf16 (payload kept)
    assert not check.equivalent(_abs("f16", "abs", widen=False), _abs("f16", "and", widen=False))
    assert not check.equivalent(_abs("bf16", "abs"), _abs("bf16", "and"))


def _planted(tmp_path, file, old, new, test):
    sys.path.insert(0, os.path.dirname(HERE))
    from mutants import checker_test_fails_on_mutant
    checker_test_fails_on_mutant(tmp_path, file, old, new, f"tests/check/test_joins.py::{test}")


def test_planted_fault_widening_any_join_fails(tmp_path):
    """_widen folding whatever join it is handed (an f16 max widened as bf16): the opcode test must fail."""
    _planted(tmp_path, "src/bitorder/check/symbolic.py", "if hit is None or hit[0] != _WIDENS[op][0]:",
             "if hit is None:", "test_the_fold_keeps_the_opcode_and_the_conversion")


def test_planted_fault_bf16_fold_without_its_nan_fails(tmp_path):
    """The bf16 fold keyed as the plain f32 join (the H200 says two NaNs differ): the bf16 test must fail."""
    _planted(tmp_path, "src/bitorder/check/symbolic.py", '("max.bf16", "nan:0x7fff0000")', '("max.bf16", "")',
             "test_a_widened_bf16_max_stored_as_it_is_keeps_its_nan")


def test_planted_fault_flattening_across_opcodes_fails(tmp_path):
    """A join flattening any join under it (max.ftz.f32 into max.f32): the flattening test must fail."""
    _planted(tmp_path, "src/bitorder/check/symbolic.py", "if hit is not None and hit[0] == op:",
             "if hit is not None:", "test_joins_of_different_opcodes_are_not_flattened_together")


def test_planted_fault_16_bit_constants_as_written_fails(tmp_path):
    """The 16-bit constant kept as the integer ptxas wrote: the bit-pattern test must fail."""
    _planted(tmp_path, "src/bitorder/check/dataflow.py", 'decoded = (("value", decoded[0][1] & 0xFFFF),)',
             "pass", "test_a_16_bit_constant_is_its_bit_pattern")


def test_planted_fault_16_bit_constants_unsigned_in_index_arithmetic_fails(tmp_path):
    """0xFFFF kept unsigned in a 16-bit add (index - 1 read as index + 65535): the index test must fail."""
    _planted(tmp_path, "src/bitorder/check/integers.py", "args = [_wrap(a, True, 16) if a.__class__ is int else a for a in args]",
             "pass", "test_a_16_bit_constant_in_index_arithmetic_is_its_signed_value")


def test_planted_fault_abs_widened_as_bf16_fails(tmp_path):
    """The sign-cleared half read as abs under cvt.f32.bf16 too (its payload survives there): the test must fail."""
    _planted(tmp_path, "src/bitorder/check/symbolic.py", '_SIGN0_WIDENS = {"cvt.f32.f16": "abs.f16"}',
             '_SIGN0_WIDENS = {"cvt.f32.f16": "abs.f16", "cvt.f32.bf16": "abs.bf16"}',
             "test_abs_and_the_mask_stay_apart_where_a_nan_tells_them_apart")

