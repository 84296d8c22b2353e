"""What torch hands cuBLAS for one call, and the calls themselves (GPU side).

torch stores row-major and cuBLAS reads column-major, so torch computes
C^T = B^T A^T: cuBLAS's "A" is torch's B and its "B" is torch's A, with m = N and
n = M. A row-major operand needs no transpose; a transposed view (column-major)
is passed with op T and its other stride as the leading dimension.
"""
from __future__ import annotations

from .lt import REDUCTION_ALL, LtQuery

_TYPES = {"torch.float16": "fp16", "torch.bfloat16": "bf16", "torch.float32": "fp32",
          "torch.float8_e4m3fn": "e4m3", "torch.float8_e5m2": "e5m2"}


def dtype_name(t) -> str:
    return _TYPES[str(t.dtype)]


def _blas_view(x):
    """(transposed, ld) for a 2-D operand as cuBLAS sees its column-major transpose.

    A row-major matrix (unit last stride) is cuBLAS's untransposed operand with
    ld = its row stride; a column-major one is the transposed operand with ld = its
    column stride. torch takes row-major when both are unit (a size-1 dimension) and
    clamps ld to at least the contiguous extent, as cuBLAS requires.
    """
    rows, cols = x.shape[-2], x.shape[-1]
    s0, s1 = x.stride(-2), x.stride(-1)
    if s1 == 1 and (s0 >= max(1, cols) or rows == 1):
        return False, max(s0, cols, 1)
    if s0 == 1 and (s1 >= max(1, rows) or cols == 1):
        return True, max(s1, rows, 1)
    raise ValueError("operand is neither row- nor column-major; torch would copy it first")


def alignment(ptr: int) -> int:
    """The largest power of two (at most 256) dividing the address."""
    a = 1
    while a < 256 and ptr % (a * 2) == 0:
        a *= 2
    return a


def lt_query(a, b, out, bias=None, reduced_precision: bool = True, workspace: int = 32 << 20) -> LtQuery:
    """The cuBLASLt problem torch's call hands over for out = a @ b (+ bias); a, b 2-D or 3-D."""
    M, K = a.shape[-2], a.shape[-1]
    N = b.shape[-1]
    trans_b_op, ld_b = _blas_view(b)   # torch's B is cuBLAS's A
    trans_a_op, ld_a = _blas_view(a)   # torch's A is cuBLAS's B
    batch = a.shape[0] if a.dim() == 3 else 1
    t = dtype_name(a)
    mask = REDUCTION_ALL if reduced_precision else REDUCTION_ALL & ~4  # 4: partials in the output type
    return LtQuery(
        transa=trans_b_op, transb=trans_a_op, m=N, n=M, k=K, lda=ld_b, ldb=ld_a, ldc=out.stride(-2),
        ab_type=t, cd_type=dtype_name(out), batch=batch,
        stride_a=b.stride(0) if b.dim() == 3 else 0, stride_b=a.stride(0) if a.dim() == 3 else 0,
        stride_c=out.stride(0) if out.dim() == 3 else 0,
        bias=bias is not None, bias_type=dtype_name(bias) if bias is not None else None,
        workspace=workspace, align_a=alignment(b.data_ptr()), align_b=alignment(a.data_ptr()),
        align_c=alignment(out.data_ptr()), align_d=alignment(out.data_ptr()), reduction_mask=mask)
