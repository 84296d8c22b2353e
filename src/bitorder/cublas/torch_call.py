"""What torch hands cuBLAS for one call, and the calls themselves (GPU side).

torch stores row-major and cuBLAS reads column-major, so torch computes
C^T = B^T A^T: cuBLAS's "A" is torch's B and its "B" is torch's A, with m = N and
n = M. A row-major operand needs no transpose; a transposed view (column-major)
is passed with op T and its other stride as the leading dimension.
"""
from __future__ import annotations

from .lt import IMPL_MASK_NO_GAUSSIAN, LtQuery

_TYPES = {"torch.float16": "fp16", "torch.bfloat16": "bf16", "torch.float32": "fp32",
          "torch.float8_e4m3fn": "e4m3", "torch.float8_e5m2": "e5m2"}


def dtype_name(t) -> str:
    return _TYPES[str(t.dtype)]


def _blas_view(x):
    """(transposed, ld) for an operand as torch's prepare_matrix_for_cublas hands it over.

    2-D: a dense tensor is row-major (op N, ld = row stride) when contiguous and
    column-major (op T, ld = column stride) otherwise; a strided view is taken
    column-major first, then row-major. 3-D (bmm) checks row-major first. The raw
    stride is passed on: torch's gemm path adjusts degenerate lds later, its Lt path
    does not.
    """
    rows, cols = x.shape[-2], x.shape[-1]
    s0, s1 = x.stride(-2), x.stride(-1)
    col = s0 == 1 and s1 >= max(1, rows)
    row = s1 == 1 and s0 >= max(1, cols)
    if x.dim() == 2 and _dense(x):
        transposed = not x.is_contiguous()
    elif x.dim() == 2 and (col or row):
        transposed = col
    elif x.dim() == 3 and (row or col):
        transposed = not row
    else:
        raise ValueError("operand is neither row- nor column-major; torch copies it first")
    return transposed, (s1 if transposed else s0)


def _dense(x) -> bool:
    try:
        return x.is_non_overlapping_and_dense()
    except AttributeError:  # older torch
        return x.is_contiguous() or x.t().is_contiguous()


def alignment(ptr: int) -> int:
    """The largest power of two (at most 256) dividing the address."""
    a = 1
    while a < 256 and ptr % (a * 2) == 0:
        a *= 2
    return a


def _adjust_ld(transa, transb, m, n, k, lda, ldb, ldc):
    """torch's _cublasAdjustLdLevel3: leading dimensions of degenerate (size <= 1) problems."""
    if n <= 1:
        ldc = max(m, 1)
    if transa:
        if m <= 1:
            lda = max(k, 1)
    elif k <= 1:
        lda = max(m, 1)
    if transb:
        if k <= 1:
            ldb = max(n, 1)
    elif n <= 1:
        ldb = max(k, 1)
    return lda, ldb, ldc


def sm_count() -> int:
    import torch
    return torch.cuda.get_device_properties(torch.cuda.current_device()).multi_processor_count


def lt_query(a, b, out, bias=None, reduced_precision: bool = True) -> LtQuery:
    """The cuBLASLt problem torch 2.11's call hands over for out = a @ b (+ bias).

    Without a bias torch calls cublasGemmEx (cublasGemmStridedBatchedEx for a batch),
    whose internal heuristic query asks with a 32 MiB workspace, 16-byte alignments,
    the Gaussian implementations masked out and the SM count as target. With a 1-D
    bias torch calls cuBLASLt itself (gemm_and_bias): a 1 MiB workspace, alignments
    read off the pointers, D's off the bias pointer.
    """
    M, K = a.shape[-2], a.shape[-1]
    N = b.shape[-1]
    trans_b_op, ld_b = _blas_view(b)   # torch's B is cuBLAS's A
    trans_a_op, ld_a = _blas_view(a)   # torch's A is cuBLAS's B
    batch = a.shape[0] if a.dim() == 3 else 1
    t = dtype_name(a)
    common = dict(transa=trans_b_op, transb=trans_a_op, m=N, n=M, k=K, ab_type=t, cd_type=dtype_name(out),
                  batch=batch, stride_a=b.stride(0) if b.dim() == 3 else 0,
                  stride_b=a.stride(0) if a.dim() == 3 else 0, stride_c=out.stride(0) if out.dim() == 3 else 0,
                  reduction_mask=None if reduced_precision else 2)  # COMPUTE_TYPE (| NONE = 0)
    if bias is None:
        lda, ldb, ldc = _adjust_ld(trans_b_op, trans_a_op, N, M, K, ld_b, ld_a, out.stride(-2))
        return LtQuery(**common, lda=lda, ldb=ldb, ldc=ldc, workspace=32 << 20, align_a=16, align_b=16,
                       align_c=16, align_d=16, impl_mask=IMPL_MASK_NO_GAUSSIAN, sm_count_target=sm_count())
    return LtQuery(**common, lda=ld_b, ldb=ld_a, ldc=out.stride(-2), bias=True, bias_ptr=bias.data_ptr(),
                   workspace=1 << 20, align_a=alignment(b.data_ptr()), align_b=alignment(a.data_ptr()),
                   align_c=alignment(out.data_ptr()), align_d=alignment(bias.data_ptr()))
