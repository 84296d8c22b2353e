"""The segment-K path (bitorder.gemm.segment_k) under Triton's CPU interpreter against the reading's twin,
byte for byte (interpret_segment_k.py), with planted faults built from a copied tree."""
import os
import subprocess
import sys

import pytest

pytest.importorskip("torch")
HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "interpret_segment_k.py")


def test_the_path_gives_the_twins_bytes():
    env = dict(os.environ, TRITON_INTERPRET="1")
    p = subprocess.run([sys.executable, SCRIPT], env=env, capture_output=True, text=True, timeout=1200)
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-3000:]
    assert "0 failures" in p.stdout and "35 of 35 tiles" in p.stdout and "13 cases" in p.stdout


@pytest.mark.parametrize("old, new", [
    # the merge paired from segment 0 (an odd last segment passes up)
    ("merge_parts(parts, p.merge, add=torch.add)", 'merge_parts(parts, "pairwise_first", add=torch.add)'),
    # the longer segments first (bounds recomputed the other way)
    ("for s, e in zip(p.bounds, p.bounds[1:]):",
     "for s, e in (lambda q: zip(q, q[1:]))(__import__('bitorder.cublas.segment_k', fromlist=['x'])"
     ".segment_bounds(p.k, len(p.bounds) - 1, 'first')):"),
    # the serpentine order forgotten (odd tile rows taken ascending)
    ('flip = (ni % 2 == 1) & (p.order == "serpentine")', "flip = (ni % 2 == 1) & False"),
    # the left-over band starting a tile row late
    ("r0 = int(rows[0]) * p.tile", "r0 = min(int(rows[0]) + 1, p.nt - 1) * p.tile"),
])
def test_planted_fault_fails(tmp_path, old, new):
    sys.path.insert(0, os.path.dirname(HERE))
    from mutants import run_on_mutant
    p, copy = run_on_mutant(tmp_path, "src/bitorder/gemm/segment_k.py", old, new,
                            ["tests/gemm/interpret_segment_k.py"], env={"TRITON_INTERPRET": "1"})
    assert f"bitorder from {copy}" in p.stdout, p.stdout[-2000:] + p.stderr[-2000:]
    assert p.returncode != 0 and "FAIL" in p.stdout, p.stdout[-2000:] + p.stderr[-2000:]
