"""The CPU twin: numpy models that reproduce the H200's bits exactly."""
from .gemm import matmul, accumulate, epilogue, k_groups, np_dtype, round_to
from .reduce import pinned_reduce, pinned_sum
from .replay import plan, replay, to_numpy
from . import simt, tensorcore

__all__ = ["matmul", "accumulate", "epilogue", "k_groups", "np_dtype", "round_to", "pinned_reduce", "pinned_sum",
           "simt", "tensorcore", "plan", "replay", "to_numpy"]
