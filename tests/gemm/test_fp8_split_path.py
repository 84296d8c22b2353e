"""The fp8 split-K path (issue 6) on the CPU: its kernels compile for sm90 at the tiles fp8.run_split
takes (no spills, the wgmma pipeline kept, every merge step rounded on its own); the planner sends
the profile's fp8 split answers to it (a verified entry since the 2026-12-04 gate) and falls back,
with a reason, on what it does not cover; under Triton's interpreter it returns the twin's bytes
(interpret_fp8_split.py says what the interpreter can and cannot check); planted faults fail."""
import functools
import os
import subprocess
import sys

import pytest

torch = pytest.importorskip("torch")

import bitorder  # noqa: E402
from bitorder.compiler import ptxas  # noqa: E402
from bitorder.cublas.profile import ArchProfile  # noqa: E402
from bitorder.desc import GEMMDesc  # noqa: E402
from bitorder.gemm import fp8  # noqa: E402
from bitorder.gemm.kernels_fp8 import merge8_kernel, part8_kernel  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
SIGP = {n: "i32" for n in ("M", "N", "K", "SPAN", "stride_a", "stride_b", "stride_wm", "stride_wp")}
SIGP.update(a_ptr="*fp8e4nv", b_ptr="*fp8e4nv", ws_ptr="*fp32")
ALIGNEDP = ["a_ptr", "b_ptr", "ws_ptr", "M", "N", "K", "SPAN", "stride_a", "stride_b", "stride_wm", "stride_wp"]
TRITON_OUT = {"bf16": "*bf16", "fp16": "*fp16", "fp32": "*fp32"}


def _split_tiles():
    """(tile, PROMOTE) pairs fp8.run_split can take: the wave model's tiles for any part count."""
    d = {p: GEMMDesc("split_k", "e4m3", 4096, "wgmma", 32, promotion=p, k_cuts=(1024,), partial_dtype="fp32",
                     merge_dtype="fp32", merge_order="sequential", epilogue=("scale", "round")) for p in (None, 128)}
    return sorted({(fp8._block(m, n, d[p], parts, False), p or 0) for p in d for parts in (2, 7)
                   for m, n in ((16, 16), (64, 512), (256, 1024), (1024, 4096), (8192, 8192))})


@pytest.mark.parametrize("tile, promote, tma", [(t, p, tma) for t, p in _split_tiles() for tma in (False, True)
                                                 if p or not tma])
def test_part_kernel_compiles_for_sm90_without_spills_or_serialized_wgmma(tile, promote, tma):
    """Pointer tiles, and TMA tiles where run_split takes them by default (promoting chains, as
    fp8.FP8_TMA; pure chains by TMA only under BITORDER_TMA, opt-in: ptxas serializes them, C7515)."""
    bm, bn, bk, warps, stages = tile
    c = bitorder.compile(part8_kernel, "sm90", signature=SIGP, num_warps=warps, num_stages=stages, aligned=ALIGNEDP,
                         constexprs=dict(A_ROW=True, B_ROW=False, PROMOTE=promote, BLOCK_M=bm, BLOCK_N=bn,
                                         BLOCK_K=bk, TMA=tma))
    assert f"wgmma.mma_async.sync.aligned.m64n{min(bn, 256)}k32.f32.e4m3.e4m3" in c.ptx
    assert ("cp.async.bulk.tensor" in c.ptx) == tma and c.metadata["shared"] <= 227 * 1024
    assert ("add.f32" in c.ptx) == (promote > 0)       # the promotion adds, once per 128 of a part
    r = ptxas.report(c.ptx)
    assert not r.wgmma_serialized and r.spill_stores == 0, (tile, promote, tma, r.codes, r.spill_stores)


def _merge_ptx(out, bias, **options):
    sig = dict(part_ptr="*fp32", out_ptr=TRITON_OUT[out], bias_ptr=TRITON_OUT[out], sa_ptr="*fp32", sb_ptr="*fp32",
               n_elem="i32", PARTS="i32", stride_part="i32", N="i32")
    return bitorder.compile(merge8_kernel, "sm90", signature=sig, num_warps=4, aligned=["part_ptr", "out_ptr"],
                            constexprs=dict(HAS_BIAS=bias, BLOCK=fp8.MERGE_BLOCK), **options).ptx


@pytest.mark.parametrize("out, bias", [("bf16", False), ("bf16", True), ("fp16", True), ("fp32", False)])
def test_merge_kernel_rounds_every_step_on_its_own(out, bias):
    """As fp8.run_split compiles it (enable_fp_fusion=False): every multiply and add carries .rn,
    which the PTX ISA says keeps ptxas from contracting them into an fma (the scale and the bias are
    two roundings), no fma anywhere, one cvt.rn to the output type. Triton's default emits plain
    mul.f32 / add.f32, which ptxas may fuse: why the option is set."""
    ptx = _merge_ptx(out, bias, enable_fp_fusion=False)
    assert "fma" not in ptx and "mul.f32" not in ptx and "add.f32" not in ptx
    assert ptx.count("mul.rn.f32") >= 2 and "add.rn.f32" in ptx          # sa * sb, then acc * that; the merge adds
    if out != "fp32":
        assert {"bf16": "cvt.rn.bf16.f32", "fp16": "cvt.rn.f16.f32"}[out] in ptx
    default = _merge_ptx(out, bias)
    assert "mul.f32" in default and "mul.rn.f32" not in default


def _meta(shape, dtype, t=False):
    x = torch.empty(shape[::-1] if t else shape, dtype=dtype, device="meta")
    return x.t() if t else x


def _planner(monkeypatch, split_k=4, stages="64x4", scheme=2):
    """fp8.plan on meta tensors with a stand-in cuBLASLt answer mapped through the real profile."""
    monkeypatch.setattr(fp8, "_check", functools.partial(fp8._check, devices=("meta",)))
    monkeypatch.setattr(fp8, "lt_query", lambda *a, **k: None)
    answer = {"algo_id": 66, "stages": stages, "split_k": split_k, "reduction_scheme": scheme, "tile": "-"}
    monkeypatch.setattr(fp8, "_describe", lambda q, k, bias, fast, *trial: (
        answer, ArchProfile.load().describe(answer, k, "e4m3", bias, fast, out_dtype="bf16")))

    def plan(k=4096, bias=False, fast=False, row=False, m=32, n=48):
        a, b = _meta((m, k), torch.float8_e4m3fn), _meta((k, n), torch.float8_e4m3fn, t=True)
        sa = torch.ones((m, 1) if row else (), device="meta")
        sb = torch.ones((1, n) if row else (), device="meta")
        bias = torch.empty(n, dtype=torch.bfloat16, device="meta") if bias else None
        return fp8.plan(a, b, sa, sb, bias, torch.bfloat16, fast)
    return plan


@pytest.mark.parametrize("fast", [False, True])
@pytest.mark.parametrize("bias", [False, True])
def test_split_answers_plan_to_triton(monkeypatch, fast, bias):
    """The split entry is verified (the 2026-12-04 gate: 8,444 split answers identical): no switch needed."""
    plan = _planner(monkeypatch)
    monkeypatch.delenv("BITORDER_UNVERIFIED", raising=False)
    p = plan(bias=bias, fast=fast)
    assert p.path == "triton" and p.desc.family == "split_k" and p.desc.k_cuts == (1024,), p
    assert p.desc.promotion == (None if fast else 128) and p.desc.promotion_anchor is None
    assert p.desc.epilogue == (("scale", "bias_acc", "round") if bias else ("scale", "round"))


def test_what_the_split_path_does_not_cover_falls_back_with_a_reason(monkeypatch):
    monkeypatch.setenv("BITORDER_UNVERIFIED", "1")
    monkeypatch.setenv("BITORDER_FP8_ROWWISE_EPILOGUE", "nobias=(acc*sb)*sa")   # a row-wise candidate order
    p = _planner(monkeypatch)(row=True)
    assert p.path == "cublas" and "row-wise scales on a split-K answer" in p.reason
    p = _planner(monkeypatch, scheme=1)()             # no entry for this reduction scheme
    assert p.path == "cublas" and "outside" in p.reason
    base = GEMMDesc("split_k", "e4m3", 1000, "wgmma", 32, promotion=128, k_cuts=(384,), partial_dtype="fp32",
                    merge_dtype="fp32", merge_order="sequential", epilogue=("scale", "round"))
    assert fp8.split_gap(base) == ""
    assert fp8.split_gap(base.replace(promotion_anchor="k0", k_cuts=(256,))) == ""   # parts start on intervals
    for change, why in [(dict(promotion_anchor="k0", k_cuts=(400,)), "k = 0"), (dict(merge_order="tree"), "sequentially"),
                        (dict(partial_dtype="bf16"), "fp32 partials"), (dict(epilogue=("scale_parts", "round")), "epilogue"),
                        (dict(epilogue=("scale", "round", "bias_out")), "epilogue"), (dict(k_parts=2), "equal spans"),
                        (dict(k_cuts=(384, 128)), "one level")]:
        assert why in fp8.split_gap(base.replace(**change)), change


def test_run_split_refuses_what_it_does_not_compute():
    a = torch.zeros(4, 256, dtype=torch.float8_e4m3fn)
    b = torch.zeros(8, 256, dtype=torch.float8_e4m3fn).t()
    d = GEMMDesc("split_k", "e4m3", 256, "wgmma", 32, k_cuts=(128,), partial_dtype="fp32", merge_dtype="fp32",
                 merge_order="tree", epilogue=("scale", "round"))
    with pytest.raises(NotImplementedError, match="sequentially"):
        fp8.run(a, b, torch.ones(()), torch.ones(()), d)


# CI runs a share (FP8_SPLIT_SAMPLE: 120 of the 300 problems; two of the four planted faults); set
# FP8_SPLIT_FULL=1 for all of them (about 3 minutes more)
FULL = os.environ.get("FP8_SPLIT_FULL") == "1"


def _interpret():
    env = dict(os.environ, TRITON_INTERPRET="1", **({} if FULL else {"FP8_SPLIT_SAMPLE": "1"}))
    return subprocess.run([sys.executable, os.path.join(HERE, "interpret_fp8_split.py")], env=env,
                          capture_output=True, text=True, timeout=1200)


def test_interpreted_split_path_gives_the_twins_bytes():
    """CI's share (or all 300 problems), and on the way the planted-fault runs' quick subset (run
    first, on a quick run's draws) passes on the tree under test, so their failures are the faults'
    (one run for both; the quick subset alone: FP8_SPLIT_QUICK=1)."""
    p = _interpret()
    want = "300 cases, 0 failures" if FULL else "120 cases, 0 failures"
    assert p.returncode == 0 and want in p.stdout, p.stdout[-3000:] + p.stderr[-3000:]
    assert "the quick subset: 60 cases, 0 failures" in p.stdout, p.stdout[-3000:]
    # the draws are not degenerate: reversing the merge order would show in every output type
    line = next(x for x in p.stdout.splitlines() if x.startswith("the parts merged in reverse order"))
    assert " 0 of " not in line, line


MERGE = "    p = part_ptr + offs\n"
FAULTS = {
    "merge order reversed": ("src/bitorder/gemm/kernels_fp8.py", [MERGE, "        p += stride_part"],
                             ["    p = part_ptr + offs + (PARTS - 1) * stride_part\n", "        p -= stride_part"]),
    "promotion every 64": ("src/bitorder/gemm/fp8.py", "        BK = desc.promotion   # one dot per promotion interval, from",
                           "        BK = desc.promotion // 2   # one dot per promotion interval, from"),
    "scale as (acc * sa) * sb": ("src/bitorder/gemm/kernels_fp8.py", "    acc = acc * (tl.load(sa_ptr) * tl.load(sb_ptr))",
                                 "    acc = acc * tl.load(sa_ptr) * tl.load(sb_ptr)"),
    "bias before the scale": ("src/bitorder/gemm/kernels_fp8.py",
                              ["    acc = acc * (tl.load(sa_ptr) * tl.load(sb_ptr))\n    if HAS_BIAS:\n"
                               "        acc = acc + tl.load(bias_ptr + offs % N, mask=mask, other=0.0).to(tl.float32)\n"],
                              ["    if HAS_BIAS:\n        acc = acc + tl.load(bias_ptr + offs % N, mask=mask, other=0.0)"
                               ".to(tl.float32)\n    acc = acc * (tl.load(sa_ptr) * tl.load(sb_ptr))\n"]),
}


@pytest.mark.parametrize("fault", [f if FULL or f in ("merge order reversed", "promotion every 64") else
                                   pytest.param(f, marks=pytest.mark.skip(reason="by hand: FP8_SPLIT_FULL=1"))
                                   for f in sorted(FAULTS)])
def test_planted_fault_fails_the_interpreted_comparison(tmp_path, fault):
    """Each fault, planted in a copied tree, makes interpret_fp8_split.py (its quick subset) fail,
    and the run imported the copy."""
    sys.path.insert(0, os.path.dirname(HERE))
    from mutants import run_on_mutant

    path, old, new = FAULTS[fault]
    p, copy = run_on_mutant(tmp_path, path, old, new, ["tests/gemm/interpret_fp8_split.py"],
                            env={"TRITON_INTERPRET": "1", "FP8_SPLIT_QUICK": "1"})
    assert f"bitorder from {copy}" in p.stdout, p.stdout[-2000:] + p.stderr[-2000:]
    assert p.returncode != 0 and "FAIL" in p.stdout and " 0 failures" not in p.stdout, p.stdout[-2000:]


PAIRS_ENV = {"TRITON_INTERPRET": "1", "FP8_SPLIT_QUICK": "1", "FP8_SPLIT_PLAIN": "1", "BITORDER_FP8_PAIRS": "1"}
# The planted fault: the previous odd partial and the even one added pair first, acc + (x_prev + x_even),
# in the paired loop (TMA tiles: pointer tiles run unpaired).
PAIRS_FAULT = ["b_desc.load([pid_n * BLOCK_N, k0]).T)\n                acc = acc + x_odd",
               "b_desc.load([pid_n * BLOCK_N, k0 + BLOCK_K]).T)\n                acc = acc + x_even"]
PAIRS_FAULTY = [x.replace("acc = acc + x_odd", "x_prev = x_odd").replace("acc = acc + x_even", "acc = acc + (x_prev + x_even)")
                for x in PAIRS_FAULT]


def test_paired_intervals_give_the_twins_bytes():
    """BITORDER_FP8_PAIRS=1 (two promotion intervals a trip, the odd one added on the next): the split
    path's quick subset (its promoting chains: pairs leave fast ones alone) and the plain promoting
    chain, pointer tiles (unpaired) and TMA tiles (paired), give the twin's bytes, a designed draw included
    where adding the pair first would not."""
    p = subprocess.run([sys.executable, os.path.join(HERE, "interpret_fp8_split.py")], env=dict(os.environ, **PAIRS_ENV),
                       capture_output=True, text=True, timeout=1200)
    assert "(BITORDER_FP8_PAIRS True)" in p.stdout, p.stdout[-2000:] + p.stderr[-2000:]
    assert p.returncode == 0 and " 0 failures" in p.stdout and "16 plain cases" in p.stdout, p.stdout[-3000:]


def test_paired_intervals_added_pair_first_fail(tmp_path):
    """The planted fault (PAIRS_FAULTY: the previous odd partial and the even one added pair first, in the
    paired loop; copied tree) fails the designed draw on TMA tiles (the plain chains alone,
    FP8_SPLIT_PLAIN=only: the split cases' random draws cannot tell the pair's adds apart, which is why
    the designed draw exists; CI time)."""
    sys.path.insert(0, os.path.dirname(HERE))
    from mutants import run_on_mutant

    p, copy = run_on_mutant(tmp_path, "src/bitorder/gemm/kernels_fp8.py", PAIRS_FAULT, PAIRS_FAULTY,
                            ["tests/gemm/interpret_fp8_split.py"], env=dict(PAIRS_ENV, FP8_SPLIT_PLAIN="only"))
    assert f"bitorder from {copy}" in p.stdout, p.stdout[-2000:] + p.stderr[-2000:]
    assert p.returncode != 0 and "FAIL plain" in p.stdout, p.stdout[-2000:]


@pytest.mark.parametrize("tile", sorted({t for t, p in _split_tiles() if p}))
def test_paired_part_kernel_fits_at_the_stages_fp8_pairs_allows(tile, monkeypatch):
    """BITORDER_FP8_PAIRS at run_split's promoting tiles, with the stages fp8._pairs caps them to: the
    shared memory fits sm_90's 227 KB, TMA tiles keep the wgmma pipeline and every register."""
    monkeypatch.setattr(fp8, "FP8_PAIRS", True)
    bm, bn, bk, warps, stages = tile
    d = GEMMDesc("split_k", "e4m3", 4096, "wgmma", 32, promotion=128, k_cuts=(1024,), partial_dtype="fp32",
                 merge_dtype="fp32", merge_order="sequential", epilogue=("scale", "round"))
    pairs, bm, warps, stages = fp8._pairs(d, bm, bn, bk, warps, stages)
    assert pairs
    c = bitorder.compile(part8_kernel, "sm90", signature=SIGP, num_warps=warps, num_stages=stages, aligned=ALIGNEDP,
                         constexprs=dict(A_ROW=True, B_ROW=False, PROMOTE=128, BLOCK_M=bm, BLOCK_N=bn,
                                         BLOCK_K=bk, TMA=True, PAIRS=True))
    assert c.metadata["shared"] <= 227 * 1024
    r = ptxas.report(c.ptx)
    assert not r.wgmma_serialized and r.spill_stores == 0, (tile, stages, r.codes, r.spill_stores)


PLAIN_ONLY = {"TRITON_INTERPRET": "1", "FP8_SPLIT_QUICK": "1", "FP8_SPLIT_PLAIN": "only"}
# The planted fault: one accumulator for every tile a program walks (not reset per tile).
PERSISTENT_FAULT = ["    for tile in tl.range(tl.program_id(0), tiles, PROGRAMS, flatten=True):\n",
                    "        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)\n        for k0 in range(0, K, BLOCK_K):\n"
                    "            acc = _dot8(a_desc"]
PERSISTENT_FAULTY = ["    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)\n" + PERSISTENT_FAULT[0],
                     "        for k0 in range(0, K, BLOCK_K):\n            acc = _dot8(a_desc"]


def test_persistent_chain_gives_the_twins_bytes():
    """BITORDER_FP8_PERSISTENT's kernel (kernels_fp8.chain8_persistent_kernel: two programs walking every TMA tile,
    the loop nest flattened) gives the twin's bytes on the plain promoting chains, the designed draw included."""
    p = subprocess.run([sys.executable, os.path.join(HERE, "interpret_fp8_split.py")], env=dict(os.environ, **PLAIN_ONLY),
                       capture_output=True, text=True, timeout=1200)
    assert p.returncode == 0 and "16 plain cases, 8 of them also persistent" in p.stdout, p.stdout[-3000:] + p.stderr[-2000:]


def test_persistent_chain_carrying_its_accumulator_across_tiles_fails(tmp_path):
    """The planted fault (PERSISTENT_FAULTY: the accumulator set to zero once per program, not per tile; copied
    tree) fails the interpreted comparison wherever a program walks a second tile."""
    sys.path.insert(0, os.path.dirname(HERE))
    from mutants import run_on_mutant

    p, copy = run_on_mutant(tmp_path, "src/bitorder/gemm/kernels_fp8.py", PERSISTENT_FAULT, PERSISTENT_FAULTY,
                            ["tests/gemm/interpret_fp8_split.py"], env=PLAIN_ONLY)
    assert f"bitorder from {copy}" in p.stdout, p.stdout[-2000:] + p.stderr[-2000:]
    assert p.returncode != 0 and "FAIL persistent" in p.stdout and "FAIL plain" not in p.stdout, p.stdout[-2000:]
