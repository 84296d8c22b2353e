"""The checker gate's CPU half: the partition of the pinned suite's loop-free kernels."""
import os
import sys

import pytest

pytest.importorskip("torch")
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "benchmarks"))
import checker_gate  # noqa: E402


def test_pinned_kernels_form_one_class_per_grid_and_free_ones_split_by_num_warps():
    rows = checker_gate.gate(["row_sum", "layernorm"], gpu=False, quick=True)
    for r in rows:
        assert r["v1"] == len(r["configs"]) == 8, r
        assert r["pinned_classes"] == 1 and r["free_classes"] == 2, r   # num_warps 1 vs 4; stages merge
