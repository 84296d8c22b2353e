"""Kernels the lit tests compile: the report's own row sum (one copy of the source)."""
from bitorder.compiler.demo import row_sum  # noqa: F401
