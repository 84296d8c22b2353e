"""The compile side: the CPU compile harness now, the TTGIR passes run through the stage hook later."""
from .harness import compile, Compiled, CompileError, parse_target, target_name, cache_dir

__all__ = ["compile", "Compiled", "CompileError", "parse_target", "target_name", "cache_dir"]
