"""The pinned suite's CPU references for its kernels built on exp, log, division, square roots and
an MMA (benchmarks/pinned_suite.py), checked without a GPU: under Triton's interpreter, by the
kernels' sm_90 machine code, and against the tensor-core model."""
import os
import re
import subprocess
import sys

import numpy as np
import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "benchmarks"))
torch = pytest.importorskip("torch")
import pinned_suite as ps  # noqa: E402

import bitorder  # noqa: E402

ROW_KERNELS = ("softmax", "log_softmax", "layernorm", "rmsnorm", "cross_entropy")


def _lines(stdout):
    return dict(line.split(" ", 1) for line in stdout.splitlines() if line.split(" ", 1)[0] in ROW_KERNELS)


def test_row_kernels_are_one_pattern_equal_to_their_references_under_the_interpreter():
    """softmax, log_softmax, layernorm, rmsnorm, cross_entropy: one byte pattern over BR 1, 2, 4, 8,
    equal to the suite's reference, with the interpreter's fma rounded once as the GPU's is (the
    harness shows that the shared exp and log need that, and equal their numpy twins with it)."""
    p = subprocess.run([sys.executable, os.path.join(HERE, "interpret_row_refs.py")],
                       env=dict(os.environ, TRITON_INTERPRET="1"), capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stdout[-2000:] + p.stderr[-2000:]
    assert "fma rounded once: exp, log equal True True" in p.stdout, p.stdout
    assert _lines(p.stdout) == {n: "patterns 1 equal True" for n in ROW_KERNELS}, p.stdout


def test_softmax_gate_fails_on_a_copied_suite_whose_reference_uses_numpys_exp(tmp_path):
    """The planted fault: a copied suite whose softmax reference takes numpy's correctly rounded
    exp instead of the shared one (at most 1 ulp apart). softmax's check fails, the others pass."""
    sys.path.insert(0, os.path.dirname(HERE))
    from mutants import run_on_mutant
    p, _ = run_on_mutant(tmp_path, "benchmarks/pinned_kernels.py", "    e = np_exp(_shifted(x))\n",
                         "    e = np.exp(_shifted(x))\n", ["tests/language/interpret_row_refs.py"],
                         env={"TRITON_INTERPRET": "1"})
    assert f"suite from {tmp_path}" in p.stdout, p.stdout[-2000:] + p.stderr[-2000:]
    assert p.returncode != 0, p.stdout
    assert _lines(p.stdout) == {"softmax": "patterns 1 equal False",
                                **{n: "patterns 1 equal True" for n in ROW_KERNELS[1:]}}, p.stdout


@pytest.mark.parametrize("name", [*ROW_KERNELS, "gemm_colsum"])
def test_pinned_kernels_machine_code_is_the_same_with_fp_fusion_on_and_off(name):
    """The suite launches with Triton's default enable_fp_fusion=True. The references round every
    product and add apart, so nothing may be contracted into an fma: the pinned kernel's SASS
    (LLVM, then ptxas) is the same with fusion on as off. (The free variants contract products
    into their sums, as Triton's own tl.sum lets them.)"""
    from bitorder.compiler import ptxas
    if ptxas.cuobjdump() is None:
        pytest.skip("no cuobjdump beside Triton's ptxas")
    kernel, sig, consts, block_name = ps.signature(name)
    for warps in (1, 4):
        sass = [ptxas.sass(bitorder.compile(kernel, "sm90", signature=sig, num_warps=warps, enable_fp_fusion=fuse,
                                            constexprs={**consts, block_name: ps.CASES[name][5][0],
                                                        "PINNED": True}).asm,
                           fmad=fuse) for fuse in (True, False)]
        assert "FADD" in sass[0] and sass[0] == sass[1], (name, warps)


def test_gemm_colsum_runs_fp16_k16_mmas_the_reference_models():
    """Every num_warps compiles gemm_colsum's dot to fp16 k16 MMAs with an fp32 accumulator (mma.sync
    m16n8k16 at 1 and 2 warps, wgmma m64nNk16 at 4 and 8): the instruction group the reference's
    tensor-core model folds (16 products and the accumulator, truncated, rounded toward zero)."""
    kernel, sig, consts, block_name = ps.signature("gemm_colsum")
    for warps in (1, 2, 4, 8):
        ptx = bitorder.compile(kernel, "sm90", signature=sig, num_warps=warps,
                               constexprs={**consts, block_name: 64, "PINNED": True}).asm
        mmas = set(re.findall(r"(?:wgmma\.mma_async|mma\.sync)[\w.]*", ptx))
        want = ("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32" if warps < 4
                else "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16")
        assert mmas == {want}, (warps, mmas)


def test_gemm_colsum_reference_is_the_k16_chain_then_the_pinned_column_sum():
    """The reference is tensorcore.chain over K in groups of 16 from zero, then pinned_sum down
    the columns; on small integers (every product and sum exact) it is the exact column sum."""
    from bitorder.emulate import pinned_sum, tensorcore
    g = np.random.default_rng(2)
    a = (g.standard_normal((128, 64)) * 2.0 ** g.integers(-8, 9, (128, 64))).astype(np.float16)
    b = (g.standard_normal((64, 256)) * 2.0 ** g.integers(-8, 9, (64, 256))).astype(np.float16)
    chain = tensorcore.chain(a.astype(np.float64), b.astype(np.float64), [(k, k + 16) for k in range(0, 64, 16)],
                             "fp16")
    ref = ps.gemm_colsum_reference(a, b)
    assert ref.dtype == np.float32 and ref.tobytes() == pinned_sum(chain, 0).tobytes()
    ai, bi = g.integers(-8, 9, (128, 64)).astype(np.float16), g.integers(-8, 9, (64, 256)).astype(np.float16)
    exact = (ai.astype(np.int64) @ bi.astype(np.int64)).sum(0)
    assert np.array_equal(ps.gemm_colsum_reference(ai, bi), exact.astype(np.float32))
