"""Shared math: one float32 algorithm written as Triton code and as numpy, identical bits.

    bitorder.math.exp(x) / log(x)          numpy (the CPU twin)
    bitorder.math.tl_exp / tl_log          @triton.jit, call them from your kernels
"""
from .numpy_impl import exp, fma32, log
from .triton_impl import exp as tl_exp, log as tl_log

__all__ = ["exp", "log", "fma32", "tl_exp", "tl_log"]
