"""The static bitwise checker: signatures, equivalence, partitions, autotuner pruning.

    bitorder.check.signature(ptx, args=None) -> str
    bitorder.check.equivalent(ptx_a, ptx_b, args=None) -> Verdict (bool, explanation)
    bitorder.check.level(ptx, args=None) -> which checker level classes it (v1 trees, v0 text) and why
    bitorder.check.partition([ptx, ...], args=None) -> [[indices], ...]
    bitorder.check.divisible_params(compiled) -> parameters its code assumed multiples of 16
    bitorder.check.prune(reference=0, bind=None) -> an early_config_prune for @triton.autotune

args ({PTX parameter index: int}) binds a launch's integer arguments: the verdict then holds
for launches with exactly those integers (a GEMM's loop over a runtime K is followed).
"""
from .ptx import PTXError, parse
from .prune import prune
from .signature import Verdict, canonicalize, divisible_params, equivalent, level, partition, signature

__all__ = ["PTXError", "parse", "prune", "Verdict", "canonicalize", "divisible_params", "equivalent", "level", "partition",
           "signature"]
