"""Checker v1 (the dependence-tree walk): what it merges, what it refuses, and why."""
import pytest
import triton
import triton.language as tl

import bitorder
from bitorder import check
from bitorder.check import dataflow, loops
from bitorder.compiler.demo import ROW_SUM_SIGNATURE, row_sum
from bitorder.gemm.kernels import merge_kernel


def rowsum(w, pinned, s=3):
    return bitorder.compile(row_sum, "sm90", signature=ROW_SUM_SIGNATURE,
                            constexprs={"BLOCK": 1024, "PINNED": pinned}, num_warps=w, num_stages=s)


def kernel(body, params=3, threads=32):
    """A hand-written entry: params arg0.. as .u64, the body as PTX statements."""
    ps = ",\n".join(f".param .u64 k_param_{i}" for i in range(params))
    return f".visible .entry k(\n{ps}\n)\n.reqntid {threads}\n{{\n.reg .b32 %r<40>;\n.reg .b64 %rd<20>;\n" \
           f".reg .pred %p<9>;\n{body}\nret;\n}}\n"


# thread t's input and output addresses (4 bytes apart), then two loads of its inputs
ADDRESSES = """ld.param.u64 %rd1, [k_param_0];
ld.param.u64 %rd2, [k_param_1];
mov.u32 %r1, %tid.x;
mul.wide.u32 %rd3, %r1, 4;
add.s64 %rd4, %rd1, %rd3;
add.s64 %rd5, %rd2, %rd3;
"""
HEAD = ADDRESSES + """ld.global.b32 %r2, [%rd4];
ld.global.b32 %r3, [%rd4+128];
"""


def test_pinned_row_sums_merge_over_num_warps_and_free_order_ones_do_not():
    pinned = [rowsum(w, True) for w in (1, 2, 4, 8)]
    free = [rowsum(w, False) for w in (1, 2, 4, 8)]
    assert all(check.level(k).startswith("v1") for k in pinned + free)
    assert check.partition(pinned) == [[0, 1, 2, 3]]
    assert check.partition(free) == [[0], [1], [2], [3]]     # the H200's 4 byte patterns
    v = check.equivalent(free[0], free[1])
    assert not v and "output address" in v.explanation
    assert check.equivalent(rowsum(4, True, s=1), pinned[2]).explanation.startswith("the same dependence tree")


def test_kernels_with_loops_fall_back_to_the_program_text_when_the_fold_is_off(monkeypatch):
    from bitorder.check import loops
    monkeypatch.setattr(loops, "ON", False)     # (on: tests/check/test_loops.py folds this loop)
    sig = {"part_ptr": "*fp32", "out_ptr": "*fp16", "bias_ptr": "*fp16", "n_elem": "i32", "PARTS": "i32",
           "stride_part": "i64", "N": "i32"}
    k = bitorder.compile(merge_kernel, "sm90", signature=sig, constexprs={"BLOCK": 1024, "ROUND_EACH": False,
                         "BIAS_MODE": 0}, num_warps=4)
    assert check.level(k).startswith("v0") and check.signature(k).startswith("v0:")


def test_operand_order_of_a_commuting_add_does_not_matter_but_association_does():
    a = kernel(HEAD + "add.f32 %r4, %r2, %r3;\nst.global.b32 [%rd5], %r4;")
    b = kernel(HEAD + "add.f32 %r4, %r3, %r2;\nst.global.b32 [%rd5], %r4;")
    c = kernel(HEAD + "sub.f32 %r4, %r3, %r2;\nst.global.b32 [%rd5], %r4;")
    assert check.equivalent(a, b) and not check.equivalent(a, c)
    three = "ld.global.b32 %r5, [%rd4+256];\n"
    left = kernel(HEAD + three + "add.f32 %r4, %r2, %r3;\nadd.f32 %r6, %r4, %r5;\nst.global.b32 [%rd5], %r6;")
    right = kernel(HEAD + three + "add.f32 %r4, %r3, %r5;\nadd.f32 %r6, %r2, %r4;\nst.global.b32 [%rd5], %r6;")
    assert not check.equivalent(left, right)


def test_the_same_index_computed_two_ways_is_one_address():
    wide = kernel(HEAD + "st.global.b32 [%rd5], %r2;")
    via_cvt = kernel(HEAD.replace("mul.wide.u32 %rd3, %r1, 4;", "cvt.u64.u32 %rd6, %r1;\nshl.b64 %rd3, %rd6, 2;")
                     + "st.global.b32 [%rd5], %r2;")
    assert check.level(wide).startswith("v1") and check.equivalent(wide, via_cvt)


@pytest.mark.parametrize("body,why", [
    ("mul.f32 %r4, %r2, %r3;\nadd.f32 %r5, %r4, %r2;\nst.global.b32 [%rd5], %r5;", "contract"),
    ("st.global.b32 [%rd5], %r2;\nld.global.b32 %r6, [%rd5+512];\nst.global.b32 [%rd5+4], %r6;", "alias"),
    ("mov.u32 %r9, global_smem;\nshl.b32 %r10, %r1, 2;\nadd.s32 %r11, %r9, %r10;\nst.shared.b32 [%r11], %r2;\n"
     "ld.shared.b32 %r12, [%r9];\nst.global.b32 [%rd5], %r12;", "races"),
    ("$L__top:\nadd.s32 %r1, %r1, 32;\nsetp.lt.u32 %p1, %r1, 100;\n@%p1 bra $L__top;\nst.global.b32 [%rd5], %r2;",
     "divergent"),
    ("ld.param.u32 %r20, [k_param_2];\n$L__top:\nadd.s32 %r2, %r2, 1;\nsetp.lt.u32 %p1, %r2, %r20;\n"
     "@%p1 bra $L__top;\nst.global.b32 [%rd5], %r2;", "symbolic|loop counter that starts as a tree"),
    ("setp.lt.u32 %p1, %r2, 4;\n@%p1 bra $L__done;\nbar.sync 0;\n$L__done:\nst.global.b32 [%rd5], %r2;", "symbolic"),
    ("st.global.b32 [%rd1], %r1;", "different values"),
    ("st.global.b32 [%rd5], %r2;\nst.global.b16 [%rd5+2], %r3;", "overlap in part"),
    ("ld.param.u32 %r20, [k_param_2];\nmul.wide.u32 %rd8, %r20, 4;\nadd.s64 %rd9, %rd2, %rd8;\n"
     "st.global.b32 [%rd5], %r2;\nst.global.b32 [%rd9], %r3;", "may alias"),
])
def test_what_the_walk_cannot_decide_it_refuses(body, why):
    with pytest.raises(dataflow.Unsupported, match=why):
        dataflow.roots(check.parse(kernel(HEAD + body))[0])
    assert check.signature(kernel(HEAD + body)).startswith("v0:")


def test_a_barrier_makes_the_shared_exchange_decidable():
    body = ("mov.u32 %r9, global_smem;\nshl.b32 %r10, %r1, 2;\nadd.s32 %r11, %r9, %r10;\nst.shared.b32 [%r11], %r2;\n"
            "bar.sync 0;\nld.shared.b32 %r12, [%r9];\nst.global.b32 [%rd5], %r12;")
    assert check.level(kernel(HEAD + body)).startswith("v1")


def test_an_undefined_register_may_flow_through_lanes_but_not_into_an_output():
    body = "setp.lt.u32 %p1, %r1, 4;\n@%p1 ld.global.b32 %r7, [%rd4+256];\n"
    used = kernel(HEAD + body + "st.global.b32 [%rd5], %r7;")
    assert "never written" in check.level(used)
    dropped = kernel(HEAD + body + "shfl.sync.bfly.b32 %r8, %r7, 1, 31, -1;\nst.global.b32 [%rd5], %r2;")
    assert check.level(dropped).startswith("v1")


LOOP = """mov.u32 %r30, 0;
mov.b32 %r31, 0f00000000;
$L__loop:
mul.wide.u32 %rd10, %r30, 128;
add.s64 %rd11, %rd4, %rd10;
ld.global.b32 %r32, [%rd11];
add.f32 %r31, %r31, %r32;
add.s32 %r30, %r30, 1;
setp.lt.u32 %p2, %r30, TRIPS;
@%p2 bra $L__loop;
st.global.b32 [%rd5], %r31;"""


def test_a_loop_with_a_constant_trip_count_is_unrolled_by_the_walk(monkeypatch):
    monkeypatch.setattr(loops, "CONST", False)    # (folded with it on: tests/check/test_const_fold.py)
    loop = kernel(HEAD + LOOP.replace("TRIPS", "3"))
    unrolled = kernel(HEAD + "ld.global.b32 %r5, [%rd4+256];\nmov.b32 %r31, 0f00000000;\nadd.f32 %r31, %r31, %r2;\n"
                      "add.f32 %r31, %r31, %r3;\nadd.f32 %r31, %r31, %r5;\nst.global.b32 [%rd5], %r31;")
    assert check.level(loop).startswith("v1") and check.equivalent(loop, unrolled)
    assert not check.equivalent(kernel(HEAD + LOOP.replace("TRIPS", "4")), unrolled)
    assert "long loop" in check.level(kernel(HEAD + LOOP.replace("TRIPS", "100000")))


def test_a_packed_load_is_the_same_leaves_as_narrow_loads():
    """ld.b32 then mov {lo, hi} reads the same two halves as two ld.b16 (little-endian)."""
    tail = "cvt.f32.f16 %r10, %rs1;\ncvt.f32.f16 %r11, %rs2;\nadd.f32 %r12, %r10, %r11;\nst.global.b32 [%rd5], %r12;"
    packed = kernel(HEAD + "mov.b32 {%rs1, %rs2}, %r2;\n" + tail)
    narrow = kernel(HEAD + "ld.global.b16 %rs1, [%rd4];\nld.global.b16 %rs2, [%rd4+2];\n" + tail)
    swapped = kernel(HEAD + "mov.b32 {%rs2, %rs1}, %r2;\n" + tail.replace("add.f32 %r12, %r10, %r11",
                                                                          "sub.f32 %r12, %r10, %r11"))
    assert check.level(packed).startswith("v1") and check.equivalent(packed, narrow)
    assert not check.equivalent(packed, swapped)


def test_a_paired_conversion_is_two_conversions_and_its_store_two_halves():
    paired = kernel(HEAD + "cvt.rn.f16x2.f32 %r9, %r3, %r2;\nst.global.b32 [%rd5], %r9;")
    single = kernel(HEAD + "cvt.rn.f16.f32 %rs1, %r2;\ncvt.rn.f16.f32 %rs2, %r3;\n"
                    "st.global.b16 [%rd5], %rs1;\nst.global.b16 [%rd5+2], %rs2;")
    assert check.equivalent(paired, single)


def test_shuffle_up_keeps_the_low_lanes_own_value():
    scan = kernel(HEAD + "shfl.sync.up.b32 %r9, %r2, 1, 0, -1;\nadd.f32 %r10, %r2, %r9;\n"
                  "setp.eq.u32 %p3, %r1, 0;\nselp.f32 %r11, %r2, %r10, %p3;\nst.global.b32 [%rd5], %r11;")
    assert check.level(scan).startswith("v1")
    r, nodes = dataflow.walk(check.parse(scan)[0], shapes=True)
    lane0 = [v for k, v in r.items() if k == "1*param:arg1"][0]
    assert nodes.describe(lane0[1]).startswith("load")              # lane 0 keeps its own element
    assert "over 2 loads" in nodes.describe(r["4*1+1*param:arg1"][1])  # lane 1 adds lane 0's


def test_a_value_chosen_by_an_undefined_condition_is_undefined():
    body = ("setp.lt.u32 %p1, %r1, 4;\n@%p1 ld.global.b32 %r7, [%rd4+256];\nsetp.gt.f32 %p2, %r7, %r2;\n"
            "selp.f32 %r8, %r7, %r3, %p2;\n")   # (arms other than the compared values: no max ptxas could make)
    assert "never written" in check.level(kernel(HEAD + body + "st.global.b32 [%rd5], %r8;"))
    unused = kernel(HEAD + body + "st.global.b32 [%rd5], %r2;")
    assert check.level(unused).startswith("v1")


def test_ldmatrix_gives_each_lane_its_fragment_word():
    """Rows of 16 bytes at smem + 16 * row: lane l's fragment word is at smem + 16 * (l // 4) +
    4 * (l % 4) = smem + 4 * l, the word lane l stored: the round trip is the identity."""
    trip = kernel(HEAD + "mov.u32 %r9, global_smem;\nshl.b32 %r10, %r1, 2;\nadd.s32 %r11, %r9, %r10;\n"
                  "st.shared.b32 [%r11], %r2;\nbar.sync 0;\nshl.b32 %r12, %r1, 4;\nadd.s32 %r13, %r9, %r12;\n"
                  "ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%r14}, [%r13];\nst.global.b32 [%rd5], %r14;")
    direct = kernel(HEAD + "st.global.b32 [%rd5], %r2;")
    assert check.level(trip).startswith("v1") and check.equivalent(trip, direct)
    own = trip.replace("bar.sync 0;\n", "")        # each lane reads back its own word: no race
    assert check.equivalent(own, direct)
    shifted = own.replace("ldmatrix", "add.s32 %r13, %r13, 16;\nldmatrix")   # a neighbour's word
    assert "races" in check.level(shifted)


def test_a_warp_barrier_orders_one_warp_only():
    """Lane l reads the word lane l ^ 1 wrote (same warp) or thread t ^ 32 wrote (the other warp)."""
    def exchange(partner, barrier):
        return kernel(HEAD + "mov.u32 %r9, global_smem;\nshl.b32 %r10, %r1, 2;\nadd.s32 %r11, %r9, %r10;\n"
                      f"st.shared.b32 [%r11], %r2;\n{barrier}\nxor.b32 %r12, %r1, {partner};\nshl.b32 %r13, %r12, 2;\n"
                      "add.s32 %r14, %r9, %r13;\nld.shared.b32 %r15, [%r14];\nst.global.b32 [%rd5], %r15;",
                      threads=64)
    assert check.level(exchange(1, "bar.warp.sync -1;")).startswith("v1")
    assert "races" in check.level(exchange(32, "bar.warp.sync -1;"))
    assert check.level(exchange(32, "bar.sync 0;")).startswith("v1")
    assert "races" in check.level(exchange(1, ""))


def test_a_constant_predicate_is_a_constant():
    always = kernel(HEAD + "mov.pred %p3, -1;\n@%p3 st.global.b32 [%rd5], %r2;")
    never = kernel(HEAD + "mov.pred %p3, 0;\n@%p3 st.global.b32 [%rd5], %r2;\nst.global.b32 [%rd5+4096], %r3;")
    assert check.equivalent(always, kernel(HEAD + "st.global.b32 [%rd5], %r2;"))
    assert check.equivalent(never, kernel(HEAD + "st.global.b32 [%rd5+4096], %r3;"))


def test_max_f32_trees_are_sets_and_min_trees_are_not():
    """max.f32 is a join on the H200 (+0 over -0 and a NaN operand ignored, in both operand
    orders: benchmarks/results/2026-11-29-checker-gpu): any tree over the same operands, even
    with repeats, is one node. min was not probed and keeps its tree."""
    three = "ld.global.b32 %r5, [%rd4+256];\n"
    def k(op, body):
        return kernel(HEAD + three + body.replace("OP", op) + "st.global.b32 [%rd5], %r6;")
    left = "OP.f32 %r4, %r2, %r3;\nOP.f32 %r6, %r4, %r5;\n"
    right = "OP.f32 %r4, %r5, %r3;\nOP.f32 %r6, %r2, %r4;\n"
    twice = "OP.f32 %r4, %r2, %r3;\nOP.f32 %r7, %r5, %r2;\nOP.f32 %r6, %r4, %r7;\n"
    fewer = "OP.f32 %r6, %r2, %r3;\n"
    assert check.equivalent(k("max", left), k("max", right)) and check.equivalent(k("max", left), k("max", twice))
    assert not check.equivalent(k("max", left), k("max", fewer))
    assert not check.equivalent(k("min", left), k("min", right))
    assert not check.equivalent(k("max", left), k("max.NaN", right))   # NaN-propagating max: not a join here


def test_a_forward_branch_over_straight_line_code_guards_that_code():
    """libdevice's logf skips a special-case block on a data-dependent branch: the walk runs the
    block in the threads that do not branch (each write a select on 'not taken')."""
    skip = "setp.lt.f32 %p1, %r2, 0f00000000;\n@%p1 bra $L__done;\n{}$L__done:\nst.global.b32 [%rd5], %r2;"
    a = kernel(HEAD + skip.format("mul.rn.f32 %r2, %r2, 0f40000000;\n"))
    b = kernel(HEAD + skip.format("mov.b32 %r7, 0f40000000;\nmul.rn.f32 %r2, %r2, %r7;\n"))
    c = kernel(HEAD + skip.format("mul.rn.f32 %r2, %r2, 0f40400000;\n"))
    none = kernel(HEAD + "st.global.b32 [%rd5], %r2;")
    assert check.level(a).startswith("v1")
    assert check.equivalent(a, b)                   # the same code in the region, written differently
    assert not check.equivalent(a, c)               # a different region
    assert not check.equivalent(a, none)            # the region's effect is kept


def test_a_store_skipped_by_a_branch_is_a_store_guarded_by_its_negation():
    cond = "setp.lt.f32 %p1, %r2, 0f00000000;\n"
    skipped = kernel(HEAD + cond + "@%p1 bra $L__done;\nst.global.b32 [%rd5], %r2;\n$L__done:\n")
    predicated = kernel(HEAD + cond + "@!%p1 st.global.b32 [%rd5], %r2;\n")
    unguarded = kernel(HEAD + cond + "st.global.b32 [%rd5], %r2;\n")
    assert check.equivalent(skipped, predicated) and not check.equivalent(skipped, unguarded)


def test_signed_comparisons_take_an_exact_integer_normal_form():
    """_linear_cmp: equal forms only for comparisons true on exactly the same integers
    (brute force over a grid), and the vectorised-mask case against a multiple of 16 merges."""
    import itertools
    from bitorder.check.rules import _linear_cmp
    from bitorder.check.poly import padd, pmul

    x, y = {("x",): 1}, {("y",): 1}
    lin = lambda cx, cy, k: padd(padd(pmul(x, cx), pmul(y, cy)), k)  # noqa: E731
    n16 = pmul({("n",): 1}, 16)
    assert _linear_cmp("lt", lin(2, 0, 0), n16) == _linear_cmp("lt", lin(2, 0, 1), n16)   # 2c < 16n <=> 2c+1 < 16n
    assert _linear_cmp("lt", lin(2, 0, 0), n16) != _linear_cmp("lt", lin(2, 0, 2), n16)
    forms = {}
    for cmp, cx, cy, k in itertools.product(("lt", "le", "gt", "ge", "eq", "ne"), (-4, -2, 2, 3, 4), (0, 2, 6), range(-5, 6)):
        key = _linear_cmp(cmp, lin(cx, cy, k), {(): 0})
        truth = tuple({"lt": v < 0, "le": v <= 0, "gt": v > 0, "ge": v >= 0, "eq": v == 0, "ne": v != 0}[cmp]
                      for v in (cx * a + cy * b + k for a in range(-12, 13) for b in range(-12, 13)))
        if isinstance(key, bool):
            assert set(truth) == {key}
        else:
            assert forms.setdefault(key, truth) == truth, (cmp, cx, cy, k)


@triton.jit
def _masked_double(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + o, tl.load(x_ptr + o, mask=o < n) * 2, mask=o < n)


def test_the_divisibility_triton_assumed_lets_vectorised_masks_meet():
    """Triton guards a vector of halves by its first element's mask when n is a multiple of 16;
    with 1 warp (vectors of 8) and 8 warps (pairs) the vectors differ. The compiled objects carry that assumption in
    their TTGIR (tt.divisibility): with it the two are one class; from bare PTX they stay apart."""
    sig = {"x_ptr": "*fp16", "y_ptr": "*fp16", "n": "i32"}
    ks = [bitorder.compile(_masked_double, "sm90", signature=sig, constexprs={"BLOCK": 512},
                           aligned=["x_ptr", "y_ptr", "n"], num_warps=w) for w in (1, 8)]
    assert check.divisible_params(ks[0]) == {0, 1, 2}
    assert check.partition(ks) == [[0, 1]]
    assert check.partition([k.ptx for k in ks]) == [[0], [1]]


SMEM = "mov.u32 %r9, global_smem;\nshl.b32 %r10, %r1, 2;\nadd.s32 %r11, %r9, %r10;\n"


def test_shared_words_read_back_in_halves_are_their_halves():
    """A 32-bit word stored and read back as two 16-bit halves (Triton's layout conversions of
    fp16 data do this) is the same data as its halves stored and read one by one."""
    wide = kernel(HEAD + SMEM + "st.shared.b32 [%r11], %r2;\nbar.sync 0;\n"
                  "ld.shared.b16 %rs1, [%r11];\nld.shared.b16 %rs2, [%r11+2];\n"
                  "st.global.b16 [%rd5], %rs1;\nst.global.b16 [%rd5+2], %rs2;").replace(".reg .pred", ".reg .b16 %rs<9>;\n.reg .pred")
    direct = kernel(HEAD + "mov.b32 {%rs1, %rs2}, %r2;\nst.global.b16 [%rd5], %rs1;\nst.global.b16 [%rd5+2], %rs2;"
                    ).replace(".reg .pred", ".reg .b16 %rs<9>;\n.reg .pred")
    assert check.level(wide).startswith("v1") and check.equivalent(wide, direct)


def test_a_word_stored_over_in_part_is_forgotten_and_a_read_of_it_refused():
    """A 16-bit store into the upper half of a stored 32-bit word: the word is forgotten (not kept stale
    under its key), so reading the whole word back gives a value equal to nothing, and storing that is
    refused."""
    body = (SMEM + "st.shared.b32 [%r11], %r2;\nst.shared.b16 [%r11+2], %r3;\nbar.sync 0;\n"
            "ld.shared.b32 %r12, [%r11];\nst.global.b32 [%rd5], %r12;")
    with pytest.raises(dataflow.Unsupported, match="never written"):
        dataflow.roots(check.parse(kernel(HEAD + body))[0])


B16 = ".reg .b16 %rs<9>;\n.reg .pred"


def test_16_bit_scratch_reused_by_wider_stores_after_a_barrier_reads_back_the_new_words():
    """A 16-bit reduction's scratch reused by packed 32-bit stores once a barrier has ordered every
    access (Triton's fp16 layout conversions): the new words are what a later load reads."""
    body = (SMEM + "mov.b32 {%rs1, %rs2}, %r3;\nst.shared.b16 [%r11], %rs1;\nbar.sync 0;\n"
            "ld.shared.b16 %rs3, [%r11];\nbar.sync 0;\nst.shared.b32 [%r11], %r2;\nbar.sync 0;\n"
            "ld.shared.b32 %r12, [%r11];\nst.global.b32 [%rd5], %r12;")
    reused = kernel(HEAD + body).replace(".reg .pred", B16)
    direct = kernel(HEAD + "st.global.b32 [%rd5], %r2;").replace(".reg .pred", B16)
    assert check.level(reused).startswith("v1") and check.equivalent(reused, direct)


def test_a_wider_store_over_another_threads_word_without_a_barrier_is_a_race():
    """Thread t's 32-bit store over thread t+1's 16-bit word, no barrier between: refused, as any race."""
    body = (SMEM + "mov.b32 {%rs1, %rs2}, %r3;\nst.shared.b16 [%r11+4], %rs1;\n"
            "st.shared.b32 [%r11], %r2;\nbar.sync 0;\nld.shared.b32 %r12, [%r11];\nst.global.b32 [%rd5], %r12;")
    with pytest.raises(dataflow.Unsupported, match="race"):
        dataflow.roots(check.parse(kernel(HEAD + body).replace(".reg .pred", B16))[0])


@pytest.mark.interpreted_only
def test_equal_stores_under_two_guards_key_the_same_in_either_order():
    """One value stored to one address under guards g1 then g2, or g2 then g1: the root is the
    value under their union either way, and an unguarded store absorbs the guards."""
    from bitorder.check.memory import Memory

    class Stub(Memory):
        def __init__(self):
            self.roots, self.root_guards = {}, {}
            self.nodes = type("N", (), {"undefined": set(), "nanish": set()})()

        def fnode(self, v):
            return v

        def key(self, v):
            return str(v)

    def roots(order):
        s = Stub()
        for g in order:
            s.store("addr", g, 7, "b32")
        return s.roots

    assert roots(["%p1", "%p2"]) == roots(["%p2", "%p1"]) == {"addr": ("(%p1)|(%p2)", "7", "b32")}
    assert roots(["%p1", True, "%p2"])["addr"][0] == "always"


# a program with cp.async (here a commit and a wait with nothing in flight) applies the tensor-core
# module's rules, among them that a shared word stored over at another width is forgotten
ASYNC = "cp.async.commit_group;\ncp.async.wait_group 0;\n"


def _overwrite(byte_reg, read):
    """b32 word at x, then one byte of it stored over (from byte_reg), then `read` of x."""
    return kernel(HEAD + ASYNC + SMEM + "st.shared.b32 [%r11], %r2;\nbar.sync 0;\n"
                  f"st.shared.b8 [%r11+1], {byte_reg};\nbar.sync 0;\n{read}")


def test_a_word_stored_over_at_another_width_is_forgotten_not_kept_stale():
    """A b32 word partly overwritten by a b8 store holds a mix of both: the walk must not read
    the old word back (stale bits), nor let two programs that store different bytes look alike.
    Outside programs with cp.async or wgmma such stores are refused (the test above)."""
    read = "ld.shared.b32 %r12, [%r11];\nst.global.b32 [%rd5], %r12;"
    a, b = _overwrite("%r3", read), _overwrite("%r2", read)
    stale = kernel(HEAD + ASYNC + SMEM + "st.shared.b32 [%r11], %r2;\nbar.sync 0;\n" + read)
    # the forgotten word reads as nothing: the walk declines rather than answer from stale bits
    assert "never written" in check.level(a)
    assert check.level(stale).startswith("v1")
    assert not check.equivalent(a, stale) and not check.equivalent(a, b)
    # the byte itself, read back, is the byte stored (the overwrite is walked, not refused)
    byte = "ld.shared.b8 %r12, [%r11+1];\nst.global.b8 [%rd5], %r12;"
    direct = kernel(HEAD + "st.global.b8 [%rd5], %r3;")
    assert check.level(_overwrite("%r3", byte)).startswith("v1")
    assert check.equivalent(_overwrite("%r3", byte), direct)


@pytest.mark.by_hand        # (63 s; tests/check/test_gemm_loops.py walks the same e4m3 GEMM)
def test_the_epilogue_over_the_fp8_transpose_ring_is_walked():
    """gemm_e4m3's 8-warp 64-deep 2-stage configuration (the corpus launch, bound): its epilogue's
    v4 stores land on the bytes the B transpose stored; the old words are forgotten and the walk
    classes it (it was declined before, 2026-11-30e), with every output's tree the e4m3 chain."""
    import os
    import sys
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "benchmarks"))
    from corpus import SPECS
    from bitorder.check.prune import compile_config, launch_ints
    spec = SPECS["gemm_e4m3"]
    args0 = spec.make("cpu", 7)
    cfg = next(c for c in spec.space if c.num_warps == 8 and c.num_stages == 2
               and (c.kwargs["BLOCK_M"], c.kwargs["BLOCK_N"], c.kwargs["BLOCK_K"]) == (64, 128, 64))
    ptx = compile_config(spec.fn, cfg, {**args0, **spec.fixed}, {}, "sm90")
    ints = launch_ints(spec.fn, cfg, {**args0, **spec.fixed}, {})
    assert check.level(ptx, ints).startswith("v1"), check.level(ptx, ints)
    # and it is its 4-stage twin's class (classed before; the H200 gave both the same bytes)
    twin = next(c for c in spec.space if c.num_warps == 8 and c.num_stages == 4 and c.kwargs == cfg.kwargs)
    assert check.equivalent(ptx, compile_config(spec.fn, twin, {**args0, **spec.fixed}, {}, "sm90"), ints)


def test_a_load_of_an_input_after_a_store_to_another_pointer_reads_the_input():
    """Distinct pointer arguments do not overlap (the checker's contract: outputs do not overlap
    inputs), so a second pass over the input after stores to the output (online softmax) is walked,
    and is the same as loading first; a load of the pointer already stored to stays refused (the
    case above), and so does a load whose address mixes two pointers."""
    late = kernel(HEAD + "st.global.b32 [%rd5], %r2;\nld.global.b32 %r6, [%rd4+512];\nst.global.b32 [%rd5+128], %r6;")
    early = kernel(HEAD + "ld.global.b32 %r6, [%rd4+512];\nst.global.b32 [%rd5], %r2;\nst.global.b32 [%rd5+128], %r6;")
    assert check.level(late).startswith("v1") and check.equivalent(late, early)
    other = kernel(HEAD + "st.global.b32 [%rd5], %r2;\nld.global.b32 %r6, [%rd4+516];\nst.global.b32 [%rd5+128], %r6;")
    assert not check.equivalent(late, other)
    mixed = kernel(HEAD + "st.global.b32 [%rd5], %r2;\nadd.s64 %rd9, %rd4, %rd2;\nld.global.b32 %r6, [%rd9];\n"
                   "st.global.b32 [%rd5+128], %r6;")
    assert "may alias" in check.level(mixed)
