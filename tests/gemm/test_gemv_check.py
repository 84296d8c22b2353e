"""benchmarks/gemv_check.py on the CPU: the orders it reads back from the probe's fit are the
orders the fit printed, and it picks the calls pinned to one tree."""
import itertools
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "benchmarks"))
import gemv_check  # noqa: E402

from bitorder.emulate.simt import GemvOrder  # noqa: E402


def test_parse_order_reads_back_every_str():
    for lanes, (chunk, cap), fold, span, product, bias in itertools.product(
            (1, 4, 32), ((None, None), (1, None), (64, None), (None, 64)), ("down", "up", "seq"), (None, 1021),
            ("fma", "mul_add"), ("acc", "out")):
        o = GemvOrder(lanes=lanes, chunk=chunk, fold=fold, span=span, product=product, bias=bias, cap=cap)
        assert gemv_check.parse_order(str(o)) == o


def test_the_fits_single_tree_calls_are_checked():
    got = gemv_check.checks()
    assert len(got) == 14 and {c.op for _, c, _, _ in got} == {"mm", "linear_bias"}
    assert all(c.m == 1 or c.n == 1 for _, c, _, _ in got)
    by_record = {i: o for i, _, o, _ in got}
    assert by_record[4] == GemvOrder(lanes=4, chunk=64, fold="down", span=1021)
