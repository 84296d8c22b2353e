"""The compile harness on the H200: what it builds without a GPU is what the JIT runs."""
import pytest

pytestmark = pytest.mark.gpu


def test_harness_ptx_is_the_jit_ptx():
    from bitorder.compiler.demo import live_check

    lines = live_check()
    assert all("!=" not in line for line in lines if line.startswith("num_warps")), lines


def test_report_runs_live():
    from rich.console import Console
    from bitorder.report import run

    assert run(Console(record=True, width=120)) == 0
