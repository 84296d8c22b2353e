"""The strided split (algorithm 35's dealing) through chain_kernel + merge_kernel under Triton's CPU
interpreter, against the twin byte for byte (interpret_strided.py), with planted faults."""
import os
import subprocess
import sys

import pytest

pytest.importorskip("torch")
HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "interpret_strided.py")


def test_the_kernel_gives_the_twins_bytes():
    env = dict(os.environ, TRITON_INTERPRET="1")
    p = subprocess.run([sys.executable, SCRIPT], env=env, capture_output=True, text=True, timeout=1200)
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-3000:]
    assert "0 failures" in p.stdout and "10 of 10 fp32 draws" in p.stdout


@pytest.mark.parametrize("path, old, new", [
    # the tiles dealt from the last one (part p: tiles T - 1 - p, T - 1 - p - parts, ...)
    ("src/bitorder/gemm/kernels.py", "for t0 in range(k_lo, K, SPAN * tl.num_programs(2)):",
     "for t0 in range((tl.cdiv(K, SPAN) - 1 - part) % tl.num_programs(2) * SPAN, K, SPAN * tl.num_programs(2)):"),
    # contiguous parts (the launcher forgets the layout)
    ("src/bitorder/gemm/launch.py", "parts=parts, strided=strided, **tail)", "parts=parts, strided=False, **tail)"),
    # the launcher lets a tree merge through (it must raise)
    ("src/bitorder/gemm/launch.py", 'if not serial and desc.merge_order != "sequential":',
     'if not serial and desc.merge_order not in ("sequential", "tree"):'),
])
def test_planted_fault_fails(tmp_path, path, old, new):
    sys.path.insert(0, os.path.dirname(HERE))
    from mutants import run_on_mutant
    p, copy = run_on_mutant(tmp_path, path, old, new, ["tests/gemm/interpret_strided.py"], env={"TRITON_INTERPRET": "1"})
    assert f"bitorder from {copy}" in p.stdout, p.stdout[-2000:] + p.stderr[-2000:]
    assert p.returncode != 0 and "FAIL" in p.stdout, p.stdout[-2000:] + p.stderr[-2000:]
