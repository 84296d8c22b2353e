"""The chain and merge kernels' index work, on the CPU through Triton's interpreter."""
import os
import subprocess
import sys

import pytest

pytest.importorskip("torch")


def test_every_product_once_and_the_bias_once():
    """Every descriptor shape the launcher takes sums each product once and the bias once (CI: the
    first loop on layouts nn and tt, its batched split chains on one shape, a quarter of the TMA
    tiles, KERNELS_SAMPLE; run interpret_kernels.py by hand for all of them)."""
    env = dict(os.environ, TRITON_INTERPRET="1", KERNELS_SAMPLE="1")
    script = os.path.join(os.path.dirname(__file__), "interpret_kernels.py")
    p = subprocess.run([sys.executable, script], env=env, capture_output=True, text=True, timeout=1200)
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-3000:]
    assert "0 failures" in p.stdout


@pytest.mark.parametrize("path, old, new, shows, only", [
    ("src/bitorder/gemm/kernels.py", "        if k_full < k_hi:\n", "        if k_full < k_hi and False:\n", "FAIL", "chain"),
    ("src/bitorder/gemm/kernels_fp8.py", "        if k_full < k_hi:\n", "        if k_full < k_hi and False:\n", "FAIL fp8",
     "fp8"),
])
def test_planted_fault_dropping_the_short_tile_fails(tmp_path, path, old, new, shows, only):
    """The chain with its short K tile dropped (a copied tree): the interpreter test (the share
    that reaches the mutated kernel: KERNELS_ONLY) must fail."""
    import sys as _sys
    _sys.path.insert(0, os.path.dirname(os.path.dirname(__file__)))
    from mutants import run_on_mutant

    p, copy = run_on_mutant(tmp_path, path, old, new, ["tests/gemm/interpret_kernels.py"],
                            env={"TRITON_INTERPRET": "1", "KERNELS_ONLY": only})
    assert f"bitorder from {copy}" in p.stdout, p.stdout[-2000:] + p.stderr[-2000:]
    assert p.returncode != 0 and shows in p.stdout and "0 failures" not in p.stdout
