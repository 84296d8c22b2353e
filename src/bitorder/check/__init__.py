"""The static bitwise checker: signatures, equivalence, partitions, autotuner pruning.

    bitorder.check.signature(ptx, args=None) -> str
    bitorder.check.equivalent(ptx_a, ptx_b, args=None) -> Verdict (bool, explanation)
    bitorder.check.level(ptx, args=None) -> which checker level classes it (v1 trees, v0 text) and why
    bitorder.check.partition([ptx, ...], args=None) -> [[indices], ...]
    bitorder.check.divisible_params(compiled) -> parameters its code assumed multiples of 16
    bitorder.check.prune(reference=0, bind=None, grid=None) -> an early_config_prune for @triton.autotune
    bitorder.check.cache_classes(folder) -> the classes of each kernel's variants in a Triton or Inductor cache

args ({PTX parameter index: int}) binds a launch's integer arguments: the verdict then holds
for launches with exactly those integers (a GEMM's loop over a runtime K is followed). Its
"sblock": r classes r programs of a super-block, so configurations of other block sizes over the
same elements can meet (prune's grid= chooses r from the launch grids). store=True (signature,
level, partition) keeps answers on disk for the next process (check/store.py).
"""
from ._native import NATIVE, ensure_fresh

ensure_fresh()   # a compiled module whose source changed since its build is refused, never run stale
from .ptx import PTXError, parse  # noqa: E402
from .prune import prune  # noqa: E402
from .signature import Verdict, canonicalize, divisible_params, equivalent, level, partition, signature
from .tritoncache import classes as cache_classes  # noqa: E402

__all__ = ["NATIVE", "PTXError", "cache_classes", "parse", "prune", "Verdict", "canonicalize", "divisible_params", "equivalent", "level", "partition",
           "signature"]
