"""An if-else on data (libdevice's tanhf: a polynomial for small |x|, an exp form otherwise, laid
out per element as `@p bra X; bra.uni Y; X: A; bra.uni Z; Y: B; Z:`) is walked as arm A under the
condition and arm B under its negation, B starting from the values before A: every register an
arm writes ends as "p ? A's value : B's value", exactly what a selp of the two would give. Before,
such a branch sent the kernel to the program text, which splits a pointwise kernel over num_warps
(inductor_gpt2_mlp_t8_poi1: 4 checker classes, 1 true class on the H200, 2026-12-02h call 4)."""
import triton
import triton.language as tl
from triton.language.extra import libdevice

import bitorder
from bitorder import check
from test_dataflow import HEAD, kernel

SMALL, LARGE = "mul.rn.f32 %r6, %r2, %r3;\n", "add.rn.f32 %r6, %r2, %r3;\n"
COND = "abs.f32 %r4, %r2;\nsetp.lt.f32 %p1, %r4, 0f3F000000;\n"


def diamond(taken, other, cond=COND, before="", after="st.global.b32 [%rd5], %r6;\n"):
    """HEAD, then `taken` in the threads where %p1 holds and `other` in the rest."""
    return kernel(HEAD + before + cond + "@%p1 bra $L__X;\nbra.uni $L__Y;\n$L__X:\n" + taken + "bra.uni $L__Z;\n"
                  "$L__Y:\n" + other + "$L__Z:\n" + after)


# the same choice without a branch: both values computed, one picked by selp
SELECTED = kernel(HEAD + COND + "mul.rn.f32 %r7, %r2, %r3;\nadd.rn.f32 %r8, %r2, %r3;\n"
                  "selp.f32 %r6, %r7, %r8, %p1;\nst.global.b32 [%rd5], %r6;\n")


def test_an_if_else_on_data_is_the_select_of_its_arms():
    a = diamond(SMALL, LARGE)
    assert check.level(a).startswith("v1")
    assert check.equivalent(a, SELECTED)
    # laid out the other way round: the negated condition branches to the other arm
    flipped = diamond(LARGE, SMALL, cond=COND.replace("setp.lt.f32", "setp.geu.f32"))
    assert check.equivalent(a, flipped)


def test_different_arms_or_a_different_condition_stay_apart():
    a = diamond(SMALL, LARGE)
    assert not check.equivalent(a, diamond(LARGE, SMALL))                       # the arms swapped
    assert not check.equivalent(a, diamond(SMALL, LARGE, cond=COND.replace("lt.f32", "le.f32")))
    assert not check.equivalent(a, diamond(SMALL, LARGE.replace("%r2, %r3", "%r3, %r3")))
    # an FMA against the multiply and add it contracts (each rounded): different bits
    fused = diamond("fma.rn.f32 %r6, %r2, %r3, %r2;\n", LARGE)
    split = diamond("mul.rn.f32 %r7, %r2, %r3;\nadd.rn.f32 %r6, %r7, %r2;\n", LARGE)
    assert check.level(fused).startswith("v1") and check.level(split).startswith("v1")
    assert not check.equivalent(fused, split)


def test_the_else_arm_reads_the_values_from_before_the_if_arm():
    """Arm A overwrites %r2; arm B's threads never ran A, so B reads the loaded value."""
    overwrite = diamond("mul.rn.f32 %r2, %r2, %r3;\nmov.b32 %r6, %r2;\n", LARGE)
    assert check.equivalent(overwrite, SELECTED)
    # and what B would compute from A's value instead is another kernel
    chained = kernel(HEAD + COND + "mul.rn.f32 %r7, %r2, %r3;\nadd.rn.f32 %r8, %r7, %r3;\n"
                     "selp.f32 %r6, %r7, %r8, %p1;\nst.global.b32 [%rd5], %r6;\n")
    assert not check.equivalent(overwrite, chained)


def test_a_register_one_arm_leaves_keeps_its_value_in_those_threads():
    one_armed = diamond(SMALL, "", before="mov.b32 %r6, %r3;\n")       # (an empty else arm)
    selected = kernel(HEAD + COND + "mul.rn.f32 %r7, %r2, %r3;\nselp.f32 %r6, %r7, %r3, %p1;\n"
                      "st.global.b32 [%rd5], %r6;\n")
    assert check.level(one_armed).startswith("v1") and check.equivalent(one_armed, selected)
    assert not check.equivalent(one_armed, diamond(SMALL, "", before="mov.b32 %r6, %r2;\n"))


def test_an_arm_that_touches_memory_is_left_to_the_program_text():
    stores = diamond(SMALL + "st.global.b32 [%rd5+4096], %r6;\n", LARGE)
    assert check.level(stores).startswith("v0")
    for op in ("atom.global.add.f32 %r9, [%rd5], %r6;\n", "red.global.add.f32 [%rd5], %r6;\n",
               "vote.sync.any.pred %p2, %p1, -1;\n", "activemask.b32 %r9;\n"):
        assert check.level(diamond(SMALL + op, LARGE)).startswith("v0"), op      # side effects, collectives


@triton.jit
def _gelu_tanh(x_ptr, y_ptr, BLOCK: tl.constexpr, HALF_FIRST: tl.constexpr):
    """Inductor's tanh GELU (inductor_gpt2_mlp_t8_poi1); HALF_FIRST: 0.5x(1 + t) as 0.5x + 0.5x t."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    t = libdevice.tanh((x + x * x * x * 0.044715) * 0.7978845608028654)
    if HALF_FIRST:
        y = x * 0.5 + (x * 0.5) * t
    else:
        y = (x * 0.5) * (t + 1.0)
    tl.store(y_ptr + offs, y)


def gelu(warps, half_first=False, **options):
    return bitorder.compile(_gelu_tanh, "sm90", signature={"x_ptr": "*fp32", "y_ptr": "*fp32"},
                            constexprs={"BLOCK": 256, "HALF_FIRST": half_first}, aligned=("x_ptr", "y_ptr"),
                            num_warps=warps, num_stages=1, **options)


def test_tanh_gelu_over_num_warps_is_one_class_and_its_variants_are_not():
    ks = [gelu(w) for w in (1, 2, 4, 8)]
    assert all(check.level(k).startswith("v1") for k in ks)
    assert check.partition(ks) == [[0, 1, 2, 3]]
    reordered = gelu(4, half_first=True)               # another order of the same real-number formula
    unfused = gelu(4, enable_fp_fusion=False)          # x + 0.044715 x^3: a rounded mul and add, no fma
    assert check.level(reordered).startswith("v1") and check.level(unfused).startswith("v1")
    assert check.partition([ks[0], reordered, unfused]) == [[0], [1], [2]]
