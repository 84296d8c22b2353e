"""The static bitwise checker: signatures, equivalence, partitions, autotuner pruning.

    bitorder.check.signature(ptx) -> str
    bitorder.check.equivalent(ptx_a, ptx_b) -> Verdict (bool, explanation)
    bitorder.check.level(ptx) -> which checker level classes it (v1 trees, v0 text) and why
    bitorder.check.partition([ptx, ...]) -> [[indices], ...]
    bitorder.check.divisible_params(compiled) -> parameters its code assumed multiples of 16
    bitorder.check.prune(reference=0) -> an early_config_prune for @triton.autotune
"""
from .ptx import PTXError, parse
from .prune import prune
from .signature import Verdict, canonicalize, divisible_params, equivalent, level, partition, signature

__all__ = ["PTXError", "parse", "prune", "Verdict", "canonicalize", "divisible_params", "equivalent", "level", "partition",
           "signature"]
