"""Pinned reductions on the H200: byte-identical across configurations, equal to the CPU reference."""
import os
import sys

import pytest

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.gpu
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "benchmarks"))
import pinned_suite as ps  # noqa: E402


@pytest.mark.parametrize("name", ["row_sum", "col_sum", "mid_sum", "dot_rows", "rmsnorm", "gemm_colsum"])
def test_pinned_is_invariant_and_free_order_is_not(name):
    r = ps.run_case(name, quick=True)
    assert r["configs"] >= 8 and r["pinned_invariant"], r
    assert r.get("equals_cpu_reference", True), r
