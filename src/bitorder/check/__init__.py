"""The static bitwise checker: signatures, equivalence, partitions, autotuner pruning.

    bitorder.check.signature(ptx) -> str
    bitorder.check.equivalent(ptx_a, ptx_b) -> Verdict (bool, explanation)
    bitorder.check.partition([ptx, ...]) -> [[indices], ...]
    bitorder.check.prune(reference=0) -> an early_config_prune for @triton.autotune
"""
from .ptx import PTXError, parse
from .prune import prune
from .signature import Verdict, canonicalize, equivalent, partition, signature

__all__ = ["PTXError", "parse", "prune", "Verdict", "canonicalize", "equivalent", "partition", "signature"]
