"""The transformer block's stage kernels against their numpy twins, on the CPU (Triton's
interpreter); the GPU half is benchmarks/block_e2e.py (GPU job `block`)."""
import os
import subprocess
import sys

import pytest

pytest.importorskip("torch")
SCRIPT = os.path.join(os.path.dirname(__file__), "interpret_block.py")


def test_stage_kernels_equal_their_twins():
    p = subprocess.run([sys.executable, SCRIPT], env=dict(os.environ, TRITON_INTERPRET="1"),
                       capture_output=True, text=True, timeout=1200)
    assert p.returncode == 0 and "0 failures" in p.stdout, p.stdout[-2000:] + p.stderr[-2000:]


def test_planted_fault_in_one_twin_fails_that_stage_only(tmp_path):
    """A copied tree whose rotary twin rounds one product to fp16 before the subtraction: the
    rotary stage fails and every other stage still passes."""
    sys.path.insert(0, os.path.dirname(os.path.dirname(__file__)))
    from mutants import run_on_mutant
    p, _ = run_on_mutant(tmp_path, "benchmarks/block_stages.py",
                         "    y1 = ((x1 * c).astype(F32) - (x2 * s).astype(F32)).astype(F32)\n",
                         "    y1 = ((x1 * c).astype(F32) - (x2 * s).astype(F16).astype(F32)).astype(F32)\n",
                         ["tests/emulate/interpret_block.py"], env={"TRITON_INTERPRET": "1"})
    assert f"stages from {tmp_path}" in p.stdout, p.stdout[-2000:] + p.stderr[-2000:]
    lines = dict(line.split()[:2] for line in p.stdout.splitlines() if line.split()[:1] and
                 line.split()[0] in ("rmsnorm", "rotary", "add", "softmax", "silu_mul"))
    assert lines == {"rmsnorm": "ok", "rotary": "FAIL", "add": "ok", "softmax": "ok", "silu_mul": "ok"}, p.stdout
