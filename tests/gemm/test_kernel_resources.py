"""What ptxas reports for the GEMM kernels at the tiles the launchers pick (no GPU): no spilled
registers and no serialized wgmma pipeline on the default paths, and the known costs of the
opt-in ones (why they are opt-in), so that a tile or kernel change that slows the tensor cores
shows here before an H200 run."""
import pytest

import bitorder
from bitorder.compiler import ptxas
from bitorder.desc import GEMMDesc
from bitorder.gemm import launch
from bitorder.gemm.kernels import chain_kernel, chain_tma_kernel, chain_tma_persistent_kernel
from bitorder.gemm.kernels_fp8 import chain8_kernel

from test_fp8 import ALIGNED8, SIG8  # noqa: E402  (the compile tests' signatures)
from test_kernels_compile import ALIGNED, PSIG, SIG, TMA_SIG  # noqa: E402


def _compile(kernel, sig, tile, **cx):
    bm, bn, bk, warps, stages = tile
    return bitorder.compile(kernel, "sm90", signature=sig, num_warps=warps, num_stages=stages,
                            aligned=[a for a in (ALIGNED8 if sig is SIG8 else ALIGNED) if a in sig],
                            constexprs=dict(cx, BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk))


def _report(kernel, sig, tile, **cx):
    return ptxas.report(_compile(kernel, sig, tile, **cx).ptx)


@pytest.mark.parametrize("tile", sorted({t for t, _ in launch._WAVE_TILES}))
def test_default_chains_keep_the_wgmma_pipeline_and_all_registers(tile):
    r = _report(chain_kernel, SIG, tile, A_ROW=True, B_ROW=False, GROUP=16, TAIL_FIRST=False, HAS_BIAS=True)
    assert not r.wgmma_serialized and r.spill_stores == 0, (tile, r.codes, r.spill_stores)


@pytest.mark.parametrize("m, n", [(2048, 12288), (512, 10240)])
def test_persistent_tiles_keep_the_wgmma_pipeline(m, n):
    tile = launch.persistent_block(m, n, 132)
    r = _report(chain_tma_persistent_kernel, PSIG, tile, A_ROW=True, B_ROW=False, HAS_BIAS=True, PROGRAMS=132,
                WARP_SPECIALIZE=False)
    assert not r.wgmma_serialized and r.spill_stores == 0, (tile, r.codes)


@pytest.mark.parametrize("tile", [launch.AUTO_TMA_BLOCK, launch.AUTO_SKINNY_BLOCK, launch.auto_tma_block(128, (64, 64))])
def test_auto_tma_tiles_keep_the_wgmma_pipeline(tile):
    """BITORDER_TILES=auto loads 128x128, 64x128 (M <= 128) and 64x64 tiles by TMA
    (launch.auto_tma_block): unlike the 128x256 TMA chain below, each must keep the pipeline and
    every register."""
    r = _report(chain_tma_kernel, TMA_SIG, tile, A_ROW=True, B_ROW=False, HAS_BIAS=True)
    assert not r.wgmma_serialized and r.spill_stores == 0, (tile, r.codes, r.spill_stores)


def test_tma_chain_at_128x256_is_serialized_which_is_why_it_is_opt_in():
    # the H200 (2026-11-30c): BITORDER_TMA=1 ran at 0.87x the default's speed
    tile = next(t for t, _ in launch._WAVE_TILES if t[:2] == (128, 256))
    r = _report(chain_tma_kernel, TMA_SIG, tile,
                A_ROW=True, B_ROW=False, HAS_BIAS=False)
    assert "C7515" in r.codes


@pytest.mark.parametrize("tile", sorted({(bm, bn, 128, w, min(s, 4)) for (bm, bn, _, w, s), _ in launch._WAVE_TILES}))
def test_fp8_pure_chains_keep_the_wgmma_pipeline(tile):
    r = _report(chain8_kernel, SIG8, tile, A_ROW=True, B_ROW=False, PROMOTE=0, SCALE=1, ROWWISE=False, HAS_BIAS=False)
    assert not r.wgmma_serialized and r.spill_stores == 0, (tile, r.codes, r.spill_stores)


def test_fp8_promoting_chains_keep_the_pipeline_and_spill_only_at_128x256():
    """A fresh dot per promotion interval added in after its wait (kernels_fp8._dot8) keeps the
    wgmma pipeline; Triton's max_num_imprecise_acc added the partial before the wait and ptxas
    serialized it (C7514, C7517; 0.18-0.45x torch on the H200 without TMA, 2026-11-30c). At
    128x256 the partial and the accumulator spill, so fp8.run takes 128x128 tiles there."""
    for tma in (False, True):
        big = _report(chain8_kernel, SIG8, (128, 256, 128, 8, 4), A_ROW=True, B_ROW=False, PROMOTE=128, SCALE=1,
                      ROWWISE=False, HAS_BIAS=False, TMA=tma)
        small = _report(chain8_kernel, SIG8, (128, 128, 128, 8, 4), A_ROW=True, B_ROW=False, PROMOTE=128, SCALE=1,
                        ROWWISE=False, HAS_BIAS=False, TMA=tma)
        assert not big.wgmma_serialized and not small.wgmma_serialized, (big.codes, small.codes)
        assert big.spill_stores > 0 and small.spill_stores == 0


def test_fp8_paired_promoting_chain_keeps_the_pipeline():
    """BITORDER_FP8_PAIRS' loop (two fresh chains a trip, the odd one's add deferred) at the tile fp8._pairs
    gives fp8.run's promoting 128x128x128 one (64 rows, 4 warps; TMA tiles only): not serialized, no spill,
    and the odd chain left in flight across the even add (one of the trip's two dots with no wait after
    it). At 128 rows over 8 warps ptxas serializes it (C7515), which is why _pairs narrows the tile; pointer
    tiles spill at 64 rows (68 bytes), which is why they stay unpaired."""
    from bitorder.gemm import fp8
    d = GEMMDesc("plain", "e4m3", 4096, "wgmma", 32, promotion=128, epilogue=("scale", "round"))
    fp8_pairs = fp8.FP8_PAIRS
    fp8.FP8_PAIRS = True
    try:
        pairs, bm, warps, stages = fp8._pairs(d, 128, 128, 128, 8, 4)
        assert fp8._pairs(d, 128, 128, 128, 8, 4, tma=False) == (False, 128, 8, 4)
    finally:
        fp8.FP8_PAIRS = fp8_pairs
    assert pairs and (bm, warps) == (64, 4)
    kw = dict(A_ROW=True, B_ROW=False, PROMOTE=128, SCALE=1, ROWWISE=False, HAS_BIAS=False, TMA=True)
    c = _compile(chain8_kernel, SIG8, (bm, 128, 128, warps, stages), PAIRS=True, **kw)
    r = ptxas.report(c.ptx)
    assert not r.wgmma_serialized and r.spill_stores == 0, (r.codes, r.spill_stores, r.registers)
    loop = c.ttgir[c.ttgir.index("scf.for"):c.ttgir.index("scf.yield")]
    assert loop.count("ttng.warp_group_dot ") == 2 and loop.count("warp_group_dot_wait") == 1


@pytest.mark.parametrize("promote", [0, 128])
def test_fp8_persistent_chain_keeps_the_pipeline(promote):
    """BITORDER_FP8_PERSISTENT's kernel at fp8.run's 128x128x128 tile (8 warps, 4 stages): TMA loads, no spill,
    no serialized wgmma."""
    from bitorder.gemm.kernels_fp8 import chain8_persistent_kernel
    sig = dict(SIG8)
    c = bitorder.compile(chain8_persistent_kernel, "sm90", signature=sig, num_warps=8, num_stages=4,
                         aligned=[a for a in ALIGNED8 if a in sig],
                         constexprs=dict(PROMOTE=promote, SCALE=1, ROWWISE=False, HAS_BIAS=False, BLOCK_M=128,
                                         BLOCK_N=128, BLOCK_K=128, PROGRAMS=132))
    r = ptxas.report(c.ptx)
    assert "cp.async.bulk.tensor" in c.ptx and not r.wgmma_serialized and r.spill_stores == 0, (r.codes, r.spill_stores)
