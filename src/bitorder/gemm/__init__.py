"""cuBLAS-exact GEMMs: Triton kernels per algorithm family, planned from cuBLASLt's cost model."""


def __getattr__(name):
    # torch is imported only when a GEMM entry point is used.
    if name in ("matmul", "linear", "plan", "stats", "reset_stats", "Plan"):
        from . import api
        return getattr(api, name)
    if name == "scaled_mm":
        from . import fp8
        return fp8.scaled_mm
    raise AttributeError(f"module 'bitorder.gemm' has no attribute {name!r}")
