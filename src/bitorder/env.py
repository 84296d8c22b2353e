"""What this machine has: versions, a GPU, cuBLAS, nvmath. Every probe is optional and never raises."""
from __future__ import annotations

import ctypes
import os
import functools
import importlib
import platform


def version_of(module: str):
    """The module's __version__, or None when it is not importable."""
    try:
        return getattr(importlib.import_module(module), "__version__", "?")
    except Exception:
        return None


@functools.lru_cache(None)
def torch_cuda():
    """torch if it is importable and sees a CUDA GPU, else None."""
    try:
        import torch
    except Exception:
        return None
    try:
        return torch if torch.cuda.is_available() else None
    except Exception:
        return None


def gpu_name():
    torch = torch_cuda()
    if torch is None:
        return None
    p = torch.cuda.get_device_properties(0)
    cc = torch.cuda.get_device_capability(0)
    return f"{p.name} (sm_{cc[0]}{cc[1]}, {p.multi_processor_count} SMs)"


@functools.lru_cache(None)
def cublas_version():
    """cuBLAS's own (major, minor, patch) from cublasGetProperty, or None.

    torch loads libcublas lazily; one small matmul makes it resident so that the
    library can be found by its soname.
    """
    torch = torch_cuda()
    if torch is None:
        return None
    a = torch.ones(8, 8, device="cuda", dtype=torch.float16)
    (a @ a).sum().item()
    for soname in ("libcublas.so.13", "libcublas.so.12", "libcublas.so"):
        try:
            lib = ctypes.CDLL(soname, mode=os.RTLD_NOLOAD | os.RTLD_GLOBAL)
        except OSError:
            continue
        out = []
        for prop in (0, 1, 2):  # MAJOR_VERSION, MINOR_VERSION, PATCH_LEVEL
            v = ctypes.c_int()
            if lib.cublasGetProperty(prop, ctypes.byref(v)) != 0:
                break
            out.append(v.value)
        if len(out) == 3:
            return tuple(out)
    return None


def summary() -> dict:
    """A flat dict for the report and for results files."""
    torch = torch_cuda()
    try:
        cb = cublas_version()
    except Exception:
        cb = None
    return {
        "python": platform.python_version(),
        "platform": platform.platform(),
        "bitorder": version_of("bitorder"),
        "triton": version_of("triton"),
        "numpy": version_of("numpy"),
        "torch": version_of("torch"),
        "nvmath": version_of("nvmath"),
        "gpu": gpu_name(),
        "cuda_runtime": getattr(getattr(torch, "version", None), "cuda", None) if torch else None,
        "cublas": ".".join(map(str, cb)) if cb else None,
    }
