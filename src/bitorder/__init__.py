"""bitorder: the bits of GPU kernels, reproducible, explainable and checkable.

`import bitorder` is light: it pulls in Triton but not torch. The GEMM entry points
(matmul, linear, plan) load torch on first use.
"""
__version__ = "0.1.0"

from .desc import GEMMDesc, DescError  # noqa: E402
from .compiler import compile, Compiled, CompileError  # noqa: E402
from .language import pin_all  # noqa: E402  (installs tl.sum(..., pinned=True))

import os as _os  # noqa: E402
if _os.environ.get("BITORDER_PINNED_LAYOUTS") == "1":   # the layout pass for pinned reductions
    from .compiler import layouts as _layouts
    _layouts.enable()

_LAZY = {"matmul": "bitorder.gemm", "linear": "bitorder.gemm", "plan": "bitorder.gemm", "scaled_mm": "bitorder.gemm"}


def __getattr__(name):
    if name in _LAZY:
        import importlib
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'bitorder' has no attribute {name!r}")


__all__ = ["GEMMDesc", "DescError", "compile", "Compiled", "CompileError", "pin_all", "__version__", *_LAZY]
