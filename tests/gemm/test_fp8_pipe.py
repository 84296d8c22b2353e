"""The fp8 chain's PIPE option (BITORDER_FP8_PIPE, off by default until timed on the H200) on the CPU:
where fp8.run applies it; what it compiles to for sm_90 (the K loop warp-specialized: a TMA producer
group and two 64-row consumer groups, no spills, no serialized wgmma; a no-op elsewhere); under
Triton's interpreter the same bytes as PIPE off (interpret_fp8_pipe.py); planted faults fail there.

Why PIPE is warp specialization and not a software-pipelined promotion: compiled for sm_90 with
Triton 3.6, every source form of the promotion still waits for each interval's fresh dot
(wgmma.wait_group 0) before its add: a dot whose result the loop uses is made synchronous
(WGMMAPipeline.cpp, dotCanBeProperlyAsync); carrying the partial to the next turn (p = dot; acc += p
next turn) keeps the wait right after the dot; two dots a turn wait after each. The one form that
issues the next dot before the adds (one synchronous dot, then one carried dot, then the adds)
copies the carried partial at the loop's back edge while its wgmma is in flight, and ptxas
serializes every wgmma in the kernel (C7514). benchmarks/bench_fp8.py's docstring has the table."""
import os
import re
import subprocess
import sys

import pytest

torch = pytest.importorskip("torch")

import bitorder  # noqa: E402
from bitorder.compiler import ptxas  # noqa: E402
from bitorder.desc import GEMMDesc  # noqa: E402
from bitorder.gemm import fp8  # noqa: E402
from bitorder.gemm.kernels_fp8 import chain8_kernel, part8_kernel  # noqa: E402

from test_fp8 import ALIGNED8, SIG8  # noqa: E402
from test_fp8_split_path import ALIGNEDP, SIGP  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
SLOW = GEMMDesc("plain", "e4m3", 4096, "wgmma", 32, promotion=128, epilogue=("scale", "round"))
FAST = GEMMDesc("plain", "e4m3", 4096, "wgmma", 32, epilogue=("scale", "round"))


def test_run_applies_pipe_only_to_promoting_chains_on_128_row_tma_tiles(monkeypatch):
    monkeypatch.delenv(fp8.PIPE_ENV, raising=False)
    assert fp8._pipe((128, 128, 128, 8, 4), True, SLOW, None) == ((128, 128, 128, 8, 4), False)   # default off
    monkeypatch.setenv(fp8.PIPE_ENV, "1")
    assert fp8._pipe((128, 128, 128, 8, 4), True, SLOW, None) == ((128, 128, 128, 4, 4), True)
    assert fp8._pipe((128, 128, 128, 8, 3), True, SLOW, None) == ((128, 128, 128, 4, 3), True)
    for tile, tma, desc in [((128, 128, 128, 8, 4), False, SLOW), ((64, 64, 128, 4, 4), True, SLOW),
                            ((128, 256, 128, 8, 4), True, FAST)]:
        assert fp8._pipe(tile, tma, desc, None) == (tile, False), (tile, tma, desc)
    # an explicit choice (a test's, a sweep's) goes to the kernel as given
    assert fp8._pipe((64, 64, 128, 4, 4), False, SLOW, True) == ((64, 64, 128, 4, 4), True)
    assert fp8._pipe((128, 128, 128, 8, 4), True, SLOW, False) == ((128, 128, 128, 8, 4), False)


def _compile(kernel, tile, tma, pipe, promote=128):
    bm, bn, bk, warps, stages = tile
    if kernel is chain8_kernel:
        sig, aligned = SIG8, ALIGNED8
        cx = dict(SCALE=1, ROWWISE=False, HAS_BIAS=False)
    else:
        sig, aligned = SIGP, ALIGNEDP
        cx = {}
    return bitorder.compile(kernel, "sm90", signature=sig, num_warps=warps, num_stages=stages, aligned=aligned,
                            constexprs=dict(cx, A_ROW=True, B_ROW=False, PROMOTE=promote, BLOCK_M=bm, BLOCK_N=bn,
                                            BLOCK_K=bk, TMA=tma, PIPE=pipe))


def _consumer_dots(c):
    return [re.findall(r"tensor<(\d+x\d+)xf32", line)[0] for line in c.ttgir.splitlines()
            if "ttng.warp_group_dot " in line]


@pytest.mark.parametrize("kernel", [chain8_kernel, part8_kernel], ids=["chain", "part"])
@pytest.mark.parametrize("tile", [(128, 128, 128, 4, 4), (128, 128, 128, 4, 3)])
def test_pipe_tiles_split_into_two_consumer_groups_without_spills(kernel, tile):
    """The tiles fp8.run takes with PIPE (fp8._block's 128x128 at 4 or 3 stages, 4 warps a group):
    384 threads (a producer group, two consumer groups each with a 64x128 fresh dot a promotion
    interval and its own store), all within 227 KB, no spills, the wgmma pipeline kept."""
    c = _compile(kernel, tile, True, True)
    assert re.findall(r"\.reqntid (\d+)", c.ptx) == ["384"]
    assert _consumer_dots(c) == ["64x128", "64x128"]
    assert "wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3" in c.ptx
    assert c.metadata["shared"] <= 227 * 1024
    r = ptxas.report(c.ptx)
    assert not r.wgmma_serialized and r.spill_stores == 0, (tile, r.codes, r.spill_stores)


@pytest.mark.parametrize("tile, tma", [((128, 128, 128, 8, 4), True), ((128, 128, 128, 8, 4), False),
                                       ((64, 64, 128, 4, 4), False)])
def test_pipe_is_a_no_op_where_triton_does_not_specialize(tile, tma):
    """8 warps, or pointer tiles: Triton 3.6 leaves the loop as it is (the same PTX as PIPE off, debug
    sections aside)."""
    strip = lambda ptx: re.sub(r"^\s*\.(loc|file)\b.*$", "", ptx.split(".section")[0], flags=re.M)  # noqa: E731
    assert strip(_compile(chain8_kernel, tile, tma, True).ptx) == strip(_compile(chain8_kernel, tile, tma, False).ptx)


def _interpret(quick=False):
    env = dict(os.environ, TRITON_INTERPRET="1", **({"FP8_PIPE_QUICK": "1"} if quick else {}))
    return subprocess.run([sys.executable, os.path.join(HERE, "interpret_fp8_pipe.py")], env=env,
                          capture_output=True, text=True, timeout=1200)


def test_interpreted_pipe_gives_the_same_bytes_as_pipe_off():
    p = _interpret()
    assert p.returncode == 0 and "114 cases, 0 failures" in p.stdout, p.stdout[-3000:] + p.stderr[-3000:]


TMA_LOOP = ("        for k0 in tl.range(k_lo, k_hi, BLOCK_K, warp_specialize=PIPE):\n"
            "            acc = _dot8(a_desc.load([pid_m * BLOCK_M, k0]), b_desc.load([pid_n * BLOCK_N, k0]).T, acc, PROMOTE)\n")
FAULTS = {
    # the PIPE loop adds the first promotion interval last (p1 + ... before p0)
    "first interval added last": (
        "src/bitorder/gemm/kernels_fp8.py", TMA_LOOP,
        TMA_LOOP.replace("tl.range(k_lo,", "tl.range(k_lo + PIPE * BLOCK_K,")
        + "        if PIPE and k_lo < k_hi:\n"
          "            acc = _dot8(a_desc.load([pid_m * BLOCK_M, k_lo]), b_desc.load([pid_n * BLOCK_N, k_lo]).T, acc,"
          " PROMOTE)\n"),
    # the launcher with PIPE feeds two intervals a dot (promotion every 256)
    "interval doubled under pipe": (
        "src/bitorder/gemm/fp8.py", "        BK = desc.promotion   # one dot per promotion interval, from each",
        "        BK = desc.promotion * (1 + pipe)   # one dot per promotion interval, from each"),
}


@pytest.mark.parametrize("fault", sorted(FAULTS))
def test_planted_fault_fails_the_interpreted_comparison(tmp_path, fault):
    """Each fault, planted in a copied tree, makes interpret_fp8_pipe.py (its quick subset) fail,
    and the run imported the copy."""
    sys.path.insert(0, os.path.dirname(HERE))
    from mutants import run_on_mutant

    path, old, new = FAULTS[fault]
    p, copy = run_on_mutant(tmp_path, path, old, new, ["tests/gemm/interpret_fp8_pipe.py"],
                            env={"TRITON_INTERPRET": "1", "FP8_PIPE_QUICK": "1"})
    assert f"bitorder from {copy}" in p.stdout, p.stdout[-2000:] + p.stderr[-2000:]
    assert p.returncode != 0 and "FAIL" in p.stdout and " 0 failures" not in p.stdout, p.stdout[-2000:]


def test_quick_subset_passes_on_the_tree_under_test():
    """The planted-fault runs' subset passes on the unmutated tree (so their failures are the faults')."""
    p = _interpret(quick=True)
    assert p.returncode == 0 and " 0 failures" in p.stdout, p.stdout[-3000:] + p.stderr[-3000:]
