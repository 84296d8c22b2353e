"""cuBLASLt's cost model, asked directly through nvmath-python's bindings.

An LtQuery is everything cublasLtMatmulAlgoGetHeuristic sees: the column-major
problem (transposes, m, n, k, leading dimensions, types), the batch, the
epilogue, and the preferences (workspace, pointer alignments, allowed reduction
schemes). An LtAnswer is what the heuristic answers: the algorithm id and the
configuration that names one kernel (tile, stages, split-K, reduction scheme,
...). The arch profile maps an answer to a GEMMDesc.

Needs nvmath-python and a CUDA GPU; everything else in bitorder imports without it.
"""
from __future__ import annotations

import ctypes
import dataclasses
import functools
from dataclasses import asdict, dataclass, field

import numpy as np

CUDA_R = {"fp32": 0, "fp16": 2, "bf16": 14, "e4m3": 28, "e5m2": 29}
COMPUTE_32F = 68
OP_N, OP_T = 0, 1
# cublasLtReductionScheme_t
REDUCTION = {0: "none", 1: "inplace", 2: "compute_type", 4: "output_type"}
REDUCTION_ALL = 0x7
IMPL_MASK_NO_GAUSSIAN = 0xFFFFFFFEFFFFFFFF  # what cublasGemmEx's internal query passes


@dataclass(frozen=True)
class LtQuery:
    """A column-major cuBLASLt problem D = op(A) op(B) (+ bias), as torch hands it over."""

    transa: bool
    transb: bool
    m: int
    n: int
    k: int
    lda: int
    ldb: int
    ldc: int
    ab_type: str = "fp16"
    cd_type: str = "fp16"
    batch: int = 1
    stride_a: int = 0
    stride_b: int = 0
    stride_c: int = 0
    bias: bool = False             # the BIAS epilogue (F.linear / addmm with a 1-D bias)
    bias_type: str | None = None
    fast_accum: bool | None = None  # fp8 only
    scale_mode: str | None = None   # fp8 only: "scalar" (tensor-wise) or "outer_vec" (row-wise) scales
    bias_ptr: int = 0               # torch sets the bias pointer before it asks the heuristic
    scale_ptr: int = 0              # fp8: torch sets the scale pointers before it asks (0: unset)
    workspace: int = 32 << 20
    align_a: int = 256
    align_b: int = 256
    align_c: int = 256
    align_d: int = 256
    reduction_mask: int | None = None  # None: the preference is left unset (every scheme allowed)
    impl_mask: int | None = None
    sm_count_target: int = 0        # 0: unset


@dataclass(frozen=True)
class LtAnswer:
    """One heuristic result: the configuration that decides which kernel runs."""

    algo_id: int
    tile: str
    stages: str
    split_k: int
    reduction_scheme: int
    swizzle: int
    custom_option: int
    inner_shape: int
    cluster_shape: str
    workspace_size: int
    waves_count: float
    raw: bytes = field(default=b"", compare=False, repr=False)

    def key(self) -> tuple:
        """What the arch profile keys on: the answer without workspace and waves."""
        return (self.algo_id, self.tile, self.stages, self.split_k, self.reduction_scheme,
                self.swizzle, self.custom_option, self.inner_shape, self.cluster_shape)

    def to_dict(self) -> dict:
        d = asdict(self)
        d.pop("raw")
        return d


@functools.lru_cache(None)
def _lt():
    from nvmath.bindings import cublasLt
    return cublasLt


@functools.lru_cache(None)
def handle():
    return _lt().create()


def _set(setter, dtype_of, obj, attr, value):
    arr = np.array([value], dtype=dtype_of(attr))
    setter(obj, attr, arr.ctypes.data, arr.itemsize)
    return arr  # keep alive until the call that reads it


def _enum_name(enum, value, prefix):
    try:
        return enum(value).name.removeprefix(prefix)
    except ValueError:
        return str(value)


class _Problem:
    """The Lt descriptors for one query, destroyed when dropped."""

    def __init__(self, q: LtQuery):
        lt = self.lt = _lt()
        self.keep = []
        self.desc = lt.matmul_desc_create(COMPUTE_32F, CUDA_R["fp32"])
        A = lt.MatmulDescAttribute
        sd = functools.partial(_set, lt.matmul_desc_set_attribute, lt.get_matmul_desc_attribute_dtype, self.desc)
        self.keep += [sd(A.TRANSA, OP_T if q.transa else OP_N), sd(A.TRANSB, OP_T if q.transb else OP_N)]
        if q.sm_count_target:
            self.keep.append(sd(A.SM_COUNT_TARGET, q.sm_count_target))
        if q.bias:
            self.keep.append(sd(A.EPILOGUE, int(lt.Epilogue.BIAS)))
            self.keep.append(sd(A.BIAS_POINTER, q.bias_ptr))
            if q.bias_type:
                self.keep.append(sd(A.BIAS_DATA_TYPE, CUDA_R[q.bias_type]))
        if q.fast_accum is not None:
            self.keep.append(sd(A.FAST_ACCUM, int(q.fast_accum)))
        if q.scale_mode is not None:
            mode = {"scalar": lt.MatmulMatrixScale.SCALAR_32F, "outer_vec": lt.MatmulMatrixScale.OUTER_VEC_32F}
            self.keep += [sd(A.A_SCALE_MODE, int(mode[q.scale_mode])), sd(A.B_SCALE_MODE, int(mode[q.scale_mode]))]
        if q.scale_ptr:
            self.keep += [sd(A.A_SCALE_POINTER, q.scale_ptr), sd(A.B_SCALE_POINTER, q.scale_ptr)]
        rows_a, cols_a = (q.k, q.m) if q.transa else (q.m, q.k)
        rows_b, cols_b = (q.n, q.k) if q.transb else (q.k, q.n)
        self.a = self._layout(q.ab_type, rows_a, cols_a, q.lda, q.batch, q.stride_a)
        self.b = self._layout(q.ab_type, rows_b, cols_b, q.ldb, q.batch, q.stride_b)
        self.c = self._layout(q.cd_type, q.m, q.n, q.ldc, q.batch, q.stride_c)
        self.pref = lt.matmul_preference_create()
        P = lt.MatmulPreferenceAttribute
        sp = functools.partial(_set, lt.matmul_preference_set_attribute, lt.get_matmul_preference_attribute_dtype,
                               self.pref)
        if q.reduction_mask is not None:
            self.keep.append(sp(P.REDUCTION_SCHEME_MASK, q.reduction_mask))
        self.keep += [sp(P.MAX_WORKSPACE_BYTES, q.workspace),
                      sp(P.MIN_ALIGNMENT_A_BYTES, q.align_a), sp(P.MIN_ALIGNMENT_B_BYTES, q.align_b),
                      sp(P.MIN_ALIGNMENT_C_BYTES, q.align_c), sp(P.MIN_ALIGNMENT_D_BYTES, q.align_d)]
        if q.impl_mask is not None:
            self.keep.append(sp(P.IMPL_MASK, q.impl_mask))

    def _layout(self, dtype, rows, cols, ld, batch, stride):
        lt = self.lt
        lay = lt.matrix_layout_create(CUDA_R[dtype], rows, cols, ld)
        if batch > 1:
            L = lt.MatrixLayoutAttribute
            sl = functools.partial(_set, lt.matrix_layout_set_attribute, lt.get_matrix_layout_attribute_dtype, lay)
            self.keep += [sl(L.BATCH_COUNT, batch), sl(L.STRIDED_BATCH_OFFSET, stride)]
        return lay

    def __del__(self):
        lt = self.lt
        try:
            lt.matmul_preference_destroy(self.pref)
            for lay in (self.a, self.b, self.c):
                lt.matrix_layout_destroy(lay)
            lt.matmul_desc_destroy(self.desc)
        except Exception:
            pass


def _answer(lt, result) -> LtAnswer:
    C = lt.MatmulAlgoConfigAttribute
    algo = result["algo"]

    def get(attr):
        dtype = lt.get_matmul_algo_config_attribute_dtype(attr)
        buf = np.zeros(1, dtype=dtype)
        written = ctypes.c_uint64()
        lt.matmul_algo_config_get_attribute(algo.ctypes.data, attr, buf.ctypes.data, buf.itemsize,
                                            ctypes.addressof(written))
        return int(buf[0])

    return LtAnswer(
        algo_id=get(C.ID), tile=_enum_name(lt.MatmulTile, get(C.TILE_ID), "TILE_"),
        stages=_enum_name(lt.MatmulStages, get(C.STAGES_ID), "STAGES_"), split_k=get(C.SPLITK_NUM),
        reduction_scheme=get(C.REDUCTION_SCHEME), swizzle=get(C.CTA_SWIZZLING), custom_option=get(C.CUSTOM_OPTION),
        inner_shape=get(C.INNER_SHAPE_ID), cluster_shape=_enum_name(lt.ClusterShape, get(C.CLUSTER_SHAPE_ID), "SHAPE_"),
        workspace_size=int(np.ravel(result["workspace_size"])[0]),
        waves_count=float(np.ravel(result["waves_count"])[0]),
        raw=bytes(np.asarray(algo).tobytes()))


def heuristic(q: LtQuery, count: int = 1) -> list[LtAnswer]:
    """cuBLASLt's top `count` answers for the query, best first ([] when it has none)."""
    lt = _lt()
    prob = _Problem(q)
    results = lt.MatmulHeuristicResult(count)
    n = np.zeros(1, dtype=np.int32)
    try:
        lt.matmul_algo_get_heuristic(handle(), prob.desc, prob.a, prob.b, prob.c, prob.c, prob.pref, count,
                                     results.ptr, n.ctypes.data)
    except lt.cuBLASLtError:
        return []
    return [_answer(lt, results[i]) for i in range(int(n[0]))]


def execute(q: LtQuery, answer: LtAnswer, a_ptr: int, b_ptr: int, d_ptr: int, bias_ptr: int = 0,
            stream: int = 0) -> None:
    """Run cublasLtMatmul with the answer's algorithm (alpha 1, beta 0): the answer's own bytes.

    Pointers are device addresses (torch's data_ptr()); the workspace is allocated
    through torch so that it comes from the same caching allocator torch uses.
    """
    import torch

    lt = _lt()
    prob = _Problem(dataclasses.replace(q, bias_ptr=bias_ptr) if q.bias else q)
    algo = np.frombuffer(answer.raw, dtype=lt.matmul_algo_dtype).copy()
    ws = torch.empty(max(answer.workspace_size, 1), dtype=torch.uint8, device="cuda")
    alpha = np.array([1.0], dtype=np.float32)
    beta = np.array([0.0], dtype=np.float32)
    lt.matmul(handle(), prob.desc, alpha.ctypes.data, a_ptr, prob.a, b_ptr, prob.b, beta.ctypes.data,
              d_ptr, prob.c, d_ptr, prob.c, algo.ctypes.data, ws.data_ptr(), answer.workspace_size, stream)
