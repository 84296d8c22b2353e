"""TorchInductor kernels compiled for dynamic shapes (xnumel a parameter): their XBLOCK variants meet over super-blocks
only where each stores nothing past the programs a launch runs (signature.stores_past_end, tritoncache.dynamic_frames)."""
import importlib.util
import os
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bitorder
from bitorder import check
from bitorder.check import tritoncache
from bitorder.check.bits import nonneg_decides
from bitorder.check.signature import stores_past_end

# the GPU check's kernels (benchmarks/dynamic_grid_check.py): Inductor's dynamic-shape pointwise kernel as its module
# writes one (xnumel is the launch's argument), a twin that drops the mask (it stores every element of every program
# it runs), one whose mask lets one element past xnumel through, and a persistent row sum over 256 columns
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "benchmarks"))
from dynamic_grid_check import by_folder, compare, write_module  # noqa: E402


def dynamic_module(root):
    """The module above written under `root` (as in Inductor's cache, beside the compiles) and imported, as the GPU
    check writes it."""
    return write_module(str(root))


def dynamic_cache(root, kernel, variants):
    """A cache folder holding `kernel` of the module above compiled at each (XBLOCK, num_warps) for sm_90."""
    from test_tritoncache import _entry
    mod = dynamic_module(root)
    sig = {"in_ptr0": "*fp32", "out_ptr0": "*fp32", "xnumel": "i32"}
    if kernel == "triton_per_sum_0":
        sig["r0_numel"] = "i32"
    for xblock, w in variants:
        c = bitorder.compile(getattr(mod, kernel), "sm90", signature=sig, constexprs={"XBLOCK": xblock},
                             num_warps=w, cache=False)
        _entry(root / "triton", f"X{xblock}w{w}", c, num_warps=w)
    return mod


def test_nonneg_decides_orders_of_a_constant_plus_nonneg_multiples():
    """a - b = k + (non-negative multiples of symbols known >= 0) decides a signed order where k is on the right side
    of 0; mixed signs, other symbols, unsigned orders and equalities are left open."""
    s, t, other = ("past:s",), ("past:t",), ("param:arg0",)
    syms = {s, t}
    x = {("ctaid_x",): 128, (): 5}                   # p XBLOCK + 5
    end = {("ctaid_x",): 128, s: -1}                 # p XBLOCK - s
    assert nonneg_decides("setp.lt.s32", "lt", x, end, syms) is False      # 5 + s < 0: never
    assert nonneg_decides("setp.ge.s32", "ge", x, end, syms) is True
    assert nonneg_decides("setp.gt.s32", "gt", end, x, syms) is False
    assert nonneg_decides("setp.le.s32", "le", end, x, syms) is True
    at = {("ctaid_x",): 128}                         # p XBLOCK itself: 0 + s < 0 never, s <= 0 open
    assert nonneg_decides("setp.lt.s32", "lt", at, end, syms) is False
    assert nonneg_decides("setp.le.s32", "le", at, end, syms) is None
    below = {("ctaid_x",): 128, (): -1}              # -1 + s < 0: open (s = 0)
    assert nonneg_decides("setp.lt.s32", "lt", below, end, syms) is None
    assert nonneg_decides("setp.lt.s32", "lt", x, {("ctaid_x",): 128, s: -1, t: 2}, syms) is None   # mixed signs
    assert nonneg_decides("setp.lt.s32", "lt", x, {("ctaid_x",): 128, other: -1}, syms) is None     # not known >= 0
    assert nonneg_decides("setp.lt.u32", "lt", x, end, syms) is None
    assert nonneg_decides("setp.eq.s32", "eq", x, end, syms) is None


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(["lt", "le", "gt", "ge"]), st.integers(-6, 6), st.integers(-3, 3), st.integers(-3, 3),
       st.integers(-5, 5), st.integers(-3, 3))
def test_nonneg_decides_agrees_with_every_value_it_decides_for(cmp, ka, sa, ta, kb, sb):
    """Whatever nonneg_decides answers holds at every s, t >= 0 (checked over 0..15 each, past where any of these
    orders changes); where it answers None, some values disagree, the signs are mixed, or the symbols
    cancel (a constant difference, which _linear_cmp decides)."""
    s_, t_ = ("past:s",), ("past:t",)

    def poly(k, cs, ct):   # as poly.py normalises one: a constant alone is an int
        p = {m: c for m, c in ((s_, cs), (t_, ct)) if c}
        if p and k:
            p[()] = k
        return p or k
    a, b = poly(ka, sa, ta), poly(kb, sb, 0)
    if a.__class__ is int and b.__class__ is int:
        return
    got = nonneg_decides(f"setp.{cmp}.s32", cmp, a, b, {s_, t_})
    op = {"lt": lambda x, y: x < y, "le": lambda x, y: x <= y, "gt": lambda x, y: x > y, "ge": lambda x, y: x >= y}[cmp]
    truths = {op(ka + sa * s + ta * t, kb + sb * s) for s in range(16) for t in range(16)}
    if got is not None:
        assert truths == {got}
    elif (sa - sb, ta) != (0, 0) and (sa - sb >= 0 and ta >= 0 or sa - sb <= 0 and ta <= 0):
        assert len(truths) == 2   # one sign: left open only where it truly varies (a constant difference: _linear_cmp's)


def test_stores_past_end_finds_masked_programs_past_the_launch_empty(tmp_path):
    """stores_past_end: a program past cdiv(xnumel, XBLOCK) stores nothing where every store is masked by
    x < xnumel (pointwise, persistent row sum); it may where the mask is dropped or lets x = xnumel through."""
    mod = dynamic_module(tmp_path)
    sig = {"in_ptr0": "*fp32", "out_ptr0": "*fp32", "xnumel": "i32"}
    want = {"triton_poi_fused_relu_0": False, "triton_poi_unmasked_0": True, "triton_poi_slack_0": True,
            "triton_per_sum_0": False}
    for name, past in want.items():
        s = dict(sig, r0_numel="i32") if name == "triton_per_sum_0" else sig
        for xblock, w in ((1, 1), (4, 2)) if name == "triton_per_sum_0" else ((128, 1), (512, 4)):
            c = bitorder.compile(getattr(mod, name), "sm90", signature=s, constexprs={"XBLOCK": xblock}, num_warps=w,
                                 cache=False)
            assert stores_past_end(c, 2, xblock) is past, (name, xblock, w)
    with pytest.raises(ValueError):
        stores_past_end(c, 9, 4)


_MASKS = """
import triton
import triton.language as tl


@triton.jit
def masked(in_ptr0, out_ptr0, xnumel, XBLOCK : tl.constexpr, WHICH : tl.constexpr):
    xindex = tl.program_id(0) * XBLOCK + tl.arange(0, XBLOCK)
    if WHICH == 0:
        xmask = xindex < xnumel - 3          # fewer than xnumel: nothing past the launch
    elif WHICH == 1:
        xmask = xindex <= xnumel             # x = xnumel gets through
    elif WHICH == 2:
        xmask = xindex < 2 * xnumel          # past xnumel: p XBLOCK may be below 2 xnumel
    else:
        xmask = (xindex < xnumel) & (xindex % 3 != 1)   # a mask narrower than x < xnumel: nothing past
    tl.store(out_ptr0 + xindex, tl.load(in_ptr0 + xindex, xmask), xmask)
"""


@pytest.mark.parametrize("which,past", [(0, False), (1, True), (2, True), (3, False)])
def test_stores_past_end_reads_other_masks_exactly(tmp_path, which, past):
    """stores_past_end on masks other than Inductor's: a bound below xnumel, or x < xnumel and more, leaves nothing
    past the launch; x <= xnumel and x < 2 xnumel may store there (the walk finds a store it cannot rule out)."""
    src = tmp_path / "masks.py"
    src.write_text(_MASKS)
    spec = importlib.util.spec_from_file_location(f"masks_{which}_{abs(hash(str(tmp_path)))}", src)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    c = bitorder.compile(mod.masked, "sm90", signature={"in_ptr0": "*fp32", "out_ptr0": "*fp32", "xnumel": "i32"},
                         constexprs={"XBLOCK": 256, "WHICH": which}, num_warps=4, cache=False)
    assert stores_past_end(c, 2, 256) is past


def test_a_dynamic_inductor_kernel_carries_its_dynamic_grid(tmp_path):
    """A Grid1D kernel whose xnumel is a parameter its body does not set: each variant carries cdiv(xnumel, XBLOCK)
    with xnumel's PTX parameter index, and its member says so."""
    dynamic_cache(tmp_path, "triton_poi_fused_relu_0", [(128, 1), (512, 4)])
    (variants,) = tritoncache.read(tmp_path / "triton")[0].values()
    assert sorted((v.grid.param, v.grid.xblock) for v in variants) == [(2, 128), (2, 512)]
    assert sorted(v.member.split()[-1] for v in variants) == ["grid=cdiv(xnumel,128)", "grid=cdiv(xnumel,512)"]


def test_dynamic_frames_group_xblocks_within_the_walk_s_limit():
    """dynamic_frames: XBLOCKs whose least common multiple needs at most 32 programs of each meet in one frame of that
    many elements; XBLOCK 1 and 1024 would need 1024 walks, so each stays in its own grid's frame; 1, 2, 512 and 1024
    make two frames (super-blocks of 2 and of 1024 elements)."""
    dyn = tritoncache.DynamicGrid
    got = tritoncache.dynamic_frames([dyn(2, b) for b in (128, 256, 512, 1024)])
    assert [a["sblock"] for a, _, _ in got] == [8, 4, 2, 1] and {f for _, f, _ in got} == {("dynamic super-blocks", 1024, 2)}
    assert all(a["past_end"] == (2, g.xblock) for a, _, g in got)
    assert [(a, f) for a, f, _ in tritoncache.dynamic_frames([dyn(2, 1), dyn(2, 1024)])] == \
        [(None, ("grid", "cdiv(xnumel,1)")), (None, ("grid", "cdiv(xnumel,1024)"))]
    got = tritoncache.dynamic_frames([dyn(2, b) for b in (1, 2, 512, 1024)])
    assert [(a["sblock"], f[1]) for a, f, _ in got] == [(2, 2), (1, 2), (2, 1024), (1, 1024)]
    # another parameter, or a static grid among them: each grid apart
    assert {f for _, f, _ in tritoncache.dynamic_frames([dyn(2, 128), dyn(3, 256)])} == \
        {("grid", "cdiv(xnumel,128)"), ("grid", "cdiv(xnumel,256)")}
    assert [a for a, _, _ in tritoncache.dynamic_frames([dyn(2, 128), (8, 1, 1)])] == [None, None]


def _classes(root):
    (k,) = check.cache_classes(root / "triton", store=False).kernels
    assert k["launch_grids"]
    return sorted(sorted(m.split()[0] for m in c["members"]) for c in k["classes"])


def test_dynamic_variants_meet_over_super_blocks_only_where_nothing_is_stored_past_the_launch(tmp_path):
    """Masked by x < xnumel, XBLOCK 128, 256 and 512 store the same elementwise trees over super-blocks of 512
    elements whatever xnumel is: one class. Unmasked, their super-block signatures agree too, but a launch of 128
    elements a program stores up to the next multiple of 128 past xnumel and one of 512 up to the next of 512: they
    return other bytes (a known answer), and stay one class a grid."""
    variants = [(128, 1), (256, 4), (512, 4), (512, 8)]
    masked, unmasked = tmp_path / "masked", tmp_path / "unmasked"
    masked.mkdir()
    unmasked.mkdir()
    dynamic_cache(masked, "triton_poi_fused_relu_0", variants)
    assert _classes(masked) == [["X128w1", "X256w4", "X512w4", "X512w8"]]
    dynamic_cache(unmasked, "triton_poi_unmasked_0", variants)
    assert _classes(unmasked) == [["X128w1"], ["X256w4"], ["X512w4", "X512w8"]]
    (k,) = check.cache_classes(unmasked / "triton", store=False).kernels   # each class's level says why
    assert all(c["level"].startswith("v1") and c["level"].endswith(tritoncache.PAST_END) for c in k["classes"])
    (k,) = check.cache_classes(masked / "triton", store=False).kernels
    assert not k["classes"][0]["level"].endswith(tritoncache.PAST_END)


def test_dynamic_row_sums_meet_across_xblock_with_one_tree(tmp_path):
    """A persistent row sum with xnumel rows a parameter: one warp sums each row in one tree whatever XBLOCK, so
    XBLOCK 1, 2 and 4 with one warp are one class over super-blocks of 4 rows; two warps sum in another order."""
    dynamic_cache(tmp_path, "triton_per_sum_0", [(1, 1), (2, 1), (4, 1), (2, 2)])
    assert _classes(tmp_path) == [["X1w1", "X2w1", "X4w1"], ["X2w2"]]


DYNAMIC_FAULT = ("            hit = bool(roots)\n", "            hit = False\n")   # "nothing past the launch", always


def test_dynamic_grid_planted_fault_merges_launches_that_differ(tmp_path):
    """A stores_past_end that answers "nothing past the launch" whatever the walk found, built from a copied tree:
    the unmasked variants' known answer above fails (scripts/gpu-run mutant-dynamic-grid plants this very text)."""
    from mutants import checker_test_fails_on_mutant
    checker_test_fails_on_mutant(tmp_path, "src/bitorder/check/signature.py", *DYNAMIC_FAULT,
                                 "tests/check/test_dynamic_grid.py::"
                                 "test_dynamic_variants_meet_over_super_blocks_only_where_nothing_is_stored_past_the_launch")


def test_gpu_run_plants_the_tested_fault():
    """scripts/gpu-run's mutant-dynamic-grid replaces the very line the CPU fault test replaces."""
    from pathlib import Path
    text = (Path(__file__).resolve().parents[2] / "scripts" / "gpu-run").read_text()
    assert "DYNAMIC_FAULT=('" + DYNAMIC_FAULT[0].rstrip("\n") in text
    assert "'" + DYNAMIC_FAULT[1].rstrip("\n") + "')" in text


def test_the_gpu_check_counts_a_class_whose_launches_differ():
    """dynamic_grid_check.compare: a class whose members' digests differ at one size and draw is one wrong merge;
    true classes group variants by every digest; a class whose members name other grids is counted as over grids."""
    kernels = [{"kernel": "k", "variants": 3, "classes": [
        {"members": ["a grid=cdiv(xnumel,128)", "b grid=cdiv(xnumel,512)"], "folders": ["/c/A", "/c/B"]},
        {"members": ["c grid=cdiv(xnumel,512)"], "folders": ["/c/C"]}]}]
    record = {"A": {"variant": "X128", "digests": {"100/0": "x", "100/1": "y"}},
              "B": {"variant": "X512", "digests": {"100/0": "x", "100/1": "z"}},
              "C": {"variant": "X512w8", "digests": {"100/0": "x", "100/1": "y"}}}
    got = compare(kernels, record)
    assert got["wrong_merges"] == 1 and got["classes_over_grids"] == 1 and got["compared_launches"] == 6
    assert got["kernels"]["k"]["true_classes"] == 2 and got["kernels"]["k"]["members"] == [["X128", "X512"], ["X512w8"]]
    record["B"]["digests"]["100/1"] = "y"
    assert compare(kernels, record)["wrong_merges"] == 0


def test_the_gpu_check_finds_each_launch_s_cache_folder_by_its_metadata(tmp_path):
    """dynamic_grid_check.by_folder: a launch's CompiledKernel.hash is the "hash" of the metadata in the folder Triton
    compiled it into (not the folder's name); group files and other JSON are passed over."""
    for folder, h in (("F1", "aa"), ("F2", "bb")):
        (tmp_path / "c" / folder).mkdir(parents=True)
        (tmp_path / "c" / folder / "k.json").write_text('{"hash": "%s", "name": "k"}' % h)
        (tmp_path / "c" / folder / "__grp__k.json").write_text('{"child_paths": {}}')
    (tmp_path / "c" / "F2" / "other.json").write_text("[1]")
    assert by_folder(str(tmp_path / "c"), {"aa": 1, "bb": 2, "cc": 3}) == {"F1": 1, "F2": 2}
