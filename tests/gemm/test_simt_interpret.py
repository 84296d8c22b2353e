"""The SIMT gemv kernel and the dot kernels (bitorder.gemm.kernels_simt) under Triton's CPU
interpreter, byte for byte against the CPU twin (tests/gemm/interpret_simt.py, interpret_dot.py),
their planted faults, and their sm90 code."""
import os
import subprocess
import sys

import pytest

pytest.importorskip("torch")
HERE = os.path.dirname(__file__)


def _interpret(script: str):
    """Run tests/gemm/<script> under the interpreter (a sample of its orders: SIMT_SAMPLE=1; run
    the script by hand for all of them); it must report 0 failures."""
    env = dict(os.environ, TRITON_INTERPRET="1", SIMT_SAMPLE="1")
    p = subprocess.run([sys.executable, "-W", "ignore", os.path.join(HERE, script)], env=env,
                       capture_output=True, text=True, timeout=1200)
    assert p.returncode == 0 and " 0 failures" in p.stdout, p.stdout[-3000:] + p.stderr[-3000:]


def _mutant_fails(tmp_path, old: str, new: str, script: str):
    """Run tests/gemm/<script> (quick set) on a copied tree with kernels_simt.py's `old` made `new`:
    the copy must be what ran, and the byte comparison must fail. Returns its stdout."""
    sys.path.insert(0, os.path.dirname(HERE))
    from mutants import run_on_mutant

    p, copy = run_on_mutant(tmp_path, "src/bitorder/gemm/kernels_simt.py", old, new,
                            ["-W", "ignore", f"tests/gemm/{script}"],
                            env={"TRITON_INTERPRET": "1", "SIMT_QUICK": "1", "SIMT_SAMPLE": "1", "SIMT_FAULT": "1"})
    assert f"bitorder from {copy}" in p.stdout, p.stdout[-2000:] + p.stderr[-2000:]
    assert p.returncode != 0 and "FAIL" in p.stdout
    return p.stdout


def test_every_order_gives_the_twins_bytes():
    _interpret("interpret_simt.py")


def test_planted_fault_folding_down_as_up_fails(tmp_path):
    """A copied tree whose "down" fold pairs neighbours first: the byte comparison must fail."""
    out = _mutant_fails(tmp_path, "_split(BLOCK_R, LANES >> lvl, 1), can_reorder=False), axis=1)",
                        "_split(BLOCK_R, LANES >> lvl, 2), can_reorder=False), axis=2)", "interpret_simt.py")
    assert "fold=down" in out


@pytest.mark.parametrize("lanes, fold, warps", [(1, 0, 4), (32, 0, 4), (16, 1, 4), (8, 2, 4), (2, 0, 1), (2, 2, 1)])
def test_compiles_for_sm90_with_single_rounding_chains(lanes, fold, warps):
    """On sm90 every chain step is one fma.rn.f32 and the fold's adds are plain add.f32: no
    multiply is left for ptxas to fuse into them; at one warp too (BITORDER_GEMV_WARPS)."""
    import bitorder
    from bitorder.gemm.kernels_simt import gemv_kernel
    sig = {"a_ptr": "*fp16", "v_ptr": "*fp16", "out_ptr": "*fp16", "bias_ptr": "*fp16", "R": "i32", "K": "i32",
           "stride_ar": "i32", "stride_ak": "i32", "stride_v": "i32", "stride_o": "i32", "stride_bias": "i32",
           "SPAN": "i32", "CHUNK": "i32", "CAP": "i32", "BLOCKLEN": "i32", "stride_ab": "i32", "stride_vb": "i32",
           "stride_ob": "i32", "NLANES": "i32"}
    c = bitorder.compile(gemv_kernel, "sm90", signature=sig, num_warps=warps, num_stages=1,
                         constexprs={"LANES": lanes, "FOLD": fold, "HAS_BIAS": True, "BIAS_OUT": False, "BLOCK_R": 16,
                                     "BLOCK_IN_CHUNK": False})
    assert "fma.rn.f32" in c.ptx and "mul.f32" not in c.ptx and "mul.rn.f32" not in c.ptx


def test_gemv_warps_follow_the_block(monkeypatch):
    """The gemv kernels' warps: unset (or nonsense) a warp per 32 values of block_r x lanes (1 to 4;
    the default since 2026-12-01g); a number as given (4: what the gates ran before)."""
    from bitorder.gemm.simt import _gemv_warps
    monkeypatch.delenv("BITORDER_GEMV_WARPS", raising=False)
    assert (_gemv_warps(16, 2), _gemv_warps(16, 4), _gemv_warps(16, 32), _gemv_warps(1, 2)) == (1, 2, 4, 1)
    monkeypatch.setenv("BITORDER_GEMV_WARPS", "4")
    assert _gemv_warps(16, 2) == 4
    monkeypatch.setenv("BITORDER_GEMV_WARPS", "2")
    assert _gemv_warps(16, 32) == 2
    monkeypatch.setenv("BITORDER_GEMV_WARPS", "three")
    assert _gemv_warps(16, 32) == 4


def test_the_split_parts_kernels_compile_for_sm90():
    """gemv(parts_apart=True)'s two kernels: each part's chains are fma.rn.f32 steps, the merge plain
    adds (no multiply for ptxas to fuse into either)."""
    import bitorder
    from bitorder.gemm.kernels_simt import gemv_merge_kernel, gemv_parts_kernel
    i32 = "i32"
    p = bitorder.compile(gemv_parts_kernel, "sm90", signature={
        "a_ptr": "*bf16", "v_ptr": "*bf16", "part_ptr": "*fp32", "R": i32, "K": i32, "stride_ar": i32, "stride_ak": i32,
        "stride_v": i32, "SPAN": i32, "CHUNK": i32, "CAP": i32, "BLOCKLEN": i32, "stride_ab": i32, "stride_vb": i32,
        "NLANES": i32}, num_warps=4, num_stages=1,
        constexprs={"LANES": 32, "FOLD": 0, "BLOCK_R": 16, "BLOCK_IN_CHUNK": False})
    assert "fma.rn.f32" in p.ptx and "mul.f32" not in p.ptx and "mul.rn.f32" not in p.ptx
    m = bitorder.compile(gemv_merge_kernel, "sm90", signature={
        "part_ptr": "*fp32", "out_ptr": "*bf16", "bias_ptr": "*bf16", "R": i32, "PARTS": i32, "stride_o": i32,
        "stride_bias": i32, "stride_ob": i32}, num_warps=4, num_stages=1,
        constexprs={"HAS_BIAS": True, "BIAS_OUT": True, "BLOCK_R": 128})
    assert "fma" not in m.ptx and "mul.f32" not in m.ptx


def test_the_dot_kernels_give_the_twins_bytes():
    _interpret("interpret_dot.py")


def test_planted_fault_dot_block_fold_as_neighbours_fails(tmp_path):
    """A copied tree whose dot block fold pairs neighbours first: the byte comparison must fail."""
    _mutant_fails(tmp_path, "part = _fold((x + y)[None, :], 1, 128, 0)", "part = _fold((x + y)[None, :], 1, 128, 1)",
                  "interpret_dot.py")


def test_the_dot_kernels_compile_for_sm90_with_single_rounding_chains():
    """Every chain step is one fma.rn.f32; the folds and the reduce are plain adds (no multiply left
    for ptxas to fuse into them)."""
    import bitorder
    from bitorder.gemm.kernels_simt import dot_partials_kernel, dot_reduce_kernel
    for vec in (2, 1):
        c = bitorder.compile(dot_partials_kernel, "sm90", signature={"a_ptr": "*fp16", "b_ptr": "*fp16", "part_ptr": "*fp32",
                             "K": "i32", "stride_a": "i32", "stride_b": "i32", "stride_ar": "i32", "stride_br": "i32"},
                             num_warps=4, num_stages=1, constexprs={"SPLIT_XY": True, "VEC": vec})
        assert c.ptx.count("fma.rn.f32") >= vec and "mul.f32" not in c.ptx and "mul.rn.f32" not in c.ptx
    r = bitorder.compile(dot_reduce_kernel, "sm90", signature={"part_ptr": "*fp32", "out_ptr": "*bf16",
                         "bias_ptr": "*bf16", "G": "i32", "stride_o": "i32", "stride_bias": "i32"}, num_warps=4,
                         num_stages=1, constexprs={"HAS_BIAS": True})
    assert "fma" not in r.ptx and "mul.f32" not in r.ptx
