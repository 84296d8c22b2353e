"""Every kernel variant the arch profile's descriptors need compiles for sm90 (no GPU needed)."""
import itertools
import re

import pytest

import bitorder
from bitorder.gemm.kernels import chain_kernel, chain_kernel_any_ld, merge_kernel

SIG = dict(a_ptr="*fp16", b_ptr="*fp16", out_ptr="*fp16", bias_ptr="*fp16", M="i32", N="i32", K="i32", SPAN="i32",
           K_STEP="i32", stride_ab="i64", stride_a="i32", stride_bb="i64", stride_b="i32", stride_ob="i64",
           stride_om="i32", stride_op="i64")
# what Triton's JIT specialises as 16-divisible when leading dimensions and pointers are aligned
ALIGNED = ("a_ptr", "b_ptr", "out_ptr", "bias_ptr", "stride_a", "stride_b", "stride_om", "SPAN", "stride_ab",
           "stride_bb", "stride_ob", "stride_op", "M", "N")
# (GROUP, TAIL_FIRST): nvjet (wgmma k16 chain), cutlass k16 residue-first, cutlass s1688 (k8) residue-first
FAMILIES = [(16, False), (16, True), (8, True)]


@pytest.mark.parametrize("group, tail", FAMILIES)
@pytest.mark.parametrize("dtype", ["fp16", "bf16"])
def test_chain_variants_compile_to_wgmma(group, tail, dtype):
    sig = {k: (v.replace("fp16", dtype) if k != "out_ptr" else "*fp32") for k, v in SIG.items()}
    for a_row, b_row, bias in itertools.product((True, False), (True, False), (True, False)):
        c = bitorder.compile(chain_kernel, "sm90", signature=sig, num_warps=8,
                             constexprs=dict(A_ROW=a_row, B_ROW=b_row, GROUP=group, TAIL_FIRST=tail, HAS_BIAS=bias,
                                             BLOCK_M=128, BLOCK_N=128, BLOCK_K=64))
        ins = set(re.findall(r"wgmma\.mma_async\.sync\.aligned\.\w+\.f32\.(\w+)\.\w+", c.ptx))
        assert ins == {"f16" if dtype == "fp16" else "bf16"}, ins


def test_generic_leading_dimension_build_compiles():
    c = bitorder.compile(chain_kernel_any_ld, "sm90", signature=SIG, num_warps=4,
                         constexprs=dict(A_ROW=False, B_ROW=True, GROUP=8, TAIL_FIRST=True, HAS_BIAS=False,
                                         BLOCK_M=64, BLOCK_N=128, BLOCK_K=64))
    assert "wgmma.mma_async" in c.ptx


@pytest.mark.parametrize("ws", ["*fp32", "*fp16"])
def test_merge_variants_compile(ws):
    sig = dict(part_ptr=ws, out_ptr="*fp16", bias_ptr="*fp16", n_elem="i64", PARTS="i32", stride_part="i64", N="i32")
    for round_each, mode in itertools.product((False, True), range(4)):
        c = bitorder.compile(merge_kernel, "sm90", signature=sig,
                             constexprs=dict(ROUND_EACH=round_each, BIAS_MODE=mode, BLOCK=1024))
        # fp16 partials summed with rounding after each add may become native f16 adds (an
        # exact rewrite: fp32 holds two fp16 sums exactly); otherwise an fp32 -> fp16 rounding is there
        assert re.search(r"cvt\.rn\.f16(x2)?\.f32|add\.(rn\.)?f16", c.ptx), (ws, round_each, mode)


@pytest.mark.parametrize("a_row, b_row", [(True, False), (True, True), (False, True), (False, False)])
def test_plain_chain_is_pipelined(a_row, b_row):
    """With aligned leading dimensions the k16 chain's loads are async copies, several stages
    deep (the structure that lets it approach cuBLAS's speed)."""
    c = bitorder.compile(chain_kernel, "sm90", signature=SIG, num_warps=8, num_stages=3, aligned=ALIGNED,
                         constexprs=dict(A_ROW=a_row, B_ROW=b_row, GROUP=16, TAIL_FIRST=False, HAS_BIAS=False,
                                         BLOCK_M=128, BLOCK_N=128, BLOCK_K=64))
    assert len(re.findall("async_copy_global_to_local", c.ttgir)) >= 4
    assert "cp.async" in c.ptx


@pytest.mark.parametrize("group, tail", FAMILIES)
def test_every_tile_the_launcher_picks_compiles_and_fits(group, tail):
    """The tiles launch.blocks chooses (and the wave model's) compile for sm90 within the H200's
    shared memory (227 KB a block), pipelined, for each chain family."""
    from bitorder.gemm import launch
    tiles = {launch.blocks(m, n, 1, 132) for m, n in ((8192, 8192), (1024, 4096), (8, 3072))}
    tiles |= {t for t, _ in launch._WAVE_TILES}
    for bm, bn, bk, warps, stages in sorted(tiles):
        c = bitorder.compile(chain_kernel, "sm90", signature=SIG, num_warps=warps, num_stages=stages, aligned=ALIGNED,
                             constexprs=dict(A_ROW=True, B_ROW=False, GROUP=group, TAIL_FIRST=tail, HAS_BIAS=False,
                                             BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk))
        assert c.metadata["shared"] <= 227 * 1024, (bm, bn, stages, c.metadata["shared"])
        assert "wgmma.mma_async" in c.ptx


TMA_SIG = {k: v for k, v in SIG.items() if k not in ("SPAN", "K_STEP", "stride_op")}
PSIG = dict(a_ptr="*fp16", b_ptr="*fp16", out_ptr="*fp16", bias_ptr="*fp16", M="i32", N="i32", K="i32",
            stride_a="i32", stride_b="i32", stride_om="i32")   # chain_tma_persistent_kernel


@pytest.mark.parametrize("a_row, b_row", [(True, False), (True, True), (False, True), (False, False)])
def test_tma_chain_loads_by_tma_and_fits(a_row, b_row):
    """chain_tma_kernel (BITORDER_TMA=1) compiles for sm90 for every layout and the wave tiles:
    its operand tiles come by TMA (cp.async.bulk.tensor), its dots are wgmma, within 227 KB."""
    from bitorder.gemm import launch
    from bitorder.gemm.kernels import chain_tma_kernel
    for bm, bn, bk, warps, stages in sorted({t for t, _ in launch._WAVE_TILES}):
        c = bitorder.compile(chain_tma_kernel, "sm90", signature=TMA_SIG, num_warps=warps, num_stages=stages,
                             aligned=[x for x in ALIGNED if x in TMA_SIG],
                             constexprs=dict(A_ROW=a_row, B_ROW=b_row, HAS_BIAS=False, BLOCK_M=bm, BLOCK_N=bn,
                                             BLOCK_K=bk))
        assert "cp.async.bulk.tensor" in c.ptx and "wgmma.mma_async" in c.ptx
        assert c.metadata["shared"] <= 227 * 1024, (bm, bn, stages, c.metadata["shared"])


def test_persistent_tma_chain_compiles_and_fits():
    """chain_tma_persistent_kernel (BITORDER_TMA=persistent) compiles for sm90 at the wave tiles,
    TMA loads and wgmma, within 227 KB."""
    from bitorder.gemm import launch
    from bitorder.gemm.kernels import chain_tma_persistent_kernel
    for bm, bn, bk, warps, stages in sorted({t for t, _ in launch._WAVE_TILES} | {(128, 128, 64, 8, 4)}):
        c = bitorder.compile(chain_tma_persistent_kernel, "sm90", signature=PSIG, num_warps=warps, num_stages=stages,
                             aligned=[x for x in ALIGNED if x in PSIG],
                             constexprs=dict(A_ROW=True, B_ROW=False, HAS_BIAS=True, BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk,
                                             PROGRAMS=132, WARP_SPECIALIZE=False))
        assert "cp.async.bulk.tensor" in c.ptx and "wgmma.mma_async" in c.ptx
        assert c.metadata["shared"] <= 227 * 1024, (bm, bn, stages, c.metadata["shared"])


@pytest.mark.parametrize("a_row, b_row", [(True, False), (False, True)])
def test_strided_split_chain_compiles(a_row, b_row):
    """The strided split's chain (algorithm 35: K tiles dealt to the parts in turn) compiles for sm90
    with fp32 partials, at the tiles the launcher picks for skinny and square outputs."""
    from bitorder.gemm import launch
    sig = {**SIG, "out_ptr": "*fp32"}
    for bm, bn, bk, warps, stages in sorted({launch.blocks(m, n, 9, 132) for m, n in ((744, 16), (4096, 4096))}):
        c = bitorder.compile(chain_kernel, "sm90", signature=sig, num_warps=warps, num_stages=stages, aligned=ALIGNED,
                             constexprs=dict(A_ROW=a_row, B_ROW=b_row, GROUP=16, TAIL_FIRST=False, HAS_BIAS=False,
                                             BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk, STRIDED=True))
        assert c.metadata["shared"] <= 227 * 1024
        assert "wgmma.mma_async" in c.ptx or "mma.sync" in c.ptx
