"""bitorder.matmul / linear / plan: torch's exact bytes, from Triton kernels planned like cuBLAS.

A call is planned the way torch 2.11 hands it to cuBLAS (the same folding of a 3-D
@ 2-D product, the same cuBLAS or cuBLASLt path, the same heuristic query), the
heuristic's answer is mapped through the arch profile to a GEMMDesc, and the chain
and merge kernels compute exactly that descriptor. An answer the profile does not
know, or a call shape bitorder does not plan, runs torch itself: exact by
definition, counted in `stats()`, warned about once per reason.
"""
from __future__ import annotations

import dataclasses
import functools
import os
import threading
import time
import warnings
from collections import Counter
from dataclasses import dataclass

import torch
import torch.nn.functional as F

from ..desc import GEMMDesc
from . import launch

_DTYPES = {torch.float16: "fp16", torch.bfloat16: "bf16"}
_STATS = Counter()
_WARNED = set()
_LOCK = threading.Lock()


@dataclass(frozen=True)
class Plan:
    """What a call runs and why its bits are what they are.

    path: "triton" (desc is computed by bitorder's kernels), "simt" (the gemv kernel under
    `order`), "rows" (one gemv per row of a under `order`: gemmSN's kernels), "dot" (the dot
    kernels under a DotOrder), "dots" (a dot per output), "seq" (one fp32 chain per output:
    magma's and CUTLASS ffma's order), "k1" (a K = 1 product, elementwise: gemmk1, or addmm with its
    bias), "segk" (cuBLAS's run-time split, segment-K: order is the SegmentKPlan; in the layouts the H200
    grounded, cublas.segment_k.KERNELS' "layouts", and under BITORDER_UNVERIFIED=1 in its
    candidate_layouts) or "cublas" (the fallback: torch itself runs it). call: the cuBLAS entry torch uses
    ("gemm", "bgemm", "gemm_and_bias"). answer: cuBLASLt's heuristic answer (a dict) or None.
    bias_at: where "dots" adds F.linear's bias.
    """

    path: str
    desc: GEMMDesc | None
    answer: dict | None
    call: str
    reason: str = ""
    plan_us: float = 0.0
    order: object = None     # "simt" / "rows" / "seq": the GemvOrder computed; "dot": simt.dot's DotOrder;
                             # "segk": the SegmentKPlan
    bias_at: str = "acc"     # "dots": a bias in fp32 before the rounding ("acc") or to the rounded output ("out")

    def to_json(self) -> str:
        """The plan as JSON, for bitorder.emulate.replay on a machine without a GPU."""
        import json
        order = None if self.order is None else dataclasses.asdict(self.order) if self.path == "segk" \
            else str(self.order)     # (a SegmentKPlan as its fields: emulate.replay rebuilds it)
        return json.dumps({"path": self.path, "desc": self.desc.to_dict() if self.desc else None,
                           "answer": self.answer, "call": self.call, "reason": self.reason,
                           "order": order, "bias_at": self.bias_at}, sort_keys=True)

    def __str__(self):
        what = str(self.desc) if self.desc else str(self.order) if self.order is not None else \
            f"cuBLAS fallback ({self.reason})"
        ans = "" if not self.answer else (f" <- algo {self.answer['algo_id']} tile {self.answer['tile']} "
                                           f"stages {self.answer['stages']} split {self.answer['split_k']} "
                                           f"scheme {self.answer['reduction_scheme']}")
        return f"Plan[{self.path}, {self.call}] {what}{ans}"


def stats() -> dict:
    """Calls served by Triton kernels and by the cuBLAS fallback (by reason), since import or reset."""
    return dict(_STATS)


def reset_stats() -> None:
    _STATS.clear()


def _count(plan: Plan) -> None:
    with _LOCK:
        _STATS[plan.path] += 1
        if plan.path == "cublas":
            key = plan.reason.split(" (")[0] if plan.reason.startswith("cuBLAS drops") else plan.reason
            _STATS[f"cublas:{key}"] += 1
            if key not in _WARNED:
                _WARNED.add(key)
                warnings.warn(f"bitorder: falling back to cuBLAS ({plan.reason}); the bytes are cuBLAS's own. "
                              "bitorder.gemm.stats() counts these calls.", stacklevel=3)


def _check(*tensors) -> str:
    t0 = tensors[0]
    for t in tensors:
        if not isinstance(t, torch.Tensor):
            raise TypeError(f"bitorder GEMMs take torch tensors, got {type(t).__name__}")
        if t.device.type != "cuda":
            raise ValueError(f"bitorder GEMMs run on CUDA tensors; got a tensor on {t.device}")
        if t.dtype != t0.dtype:
            raise TypeError(f"operands must share one dtype; got {t0.dtype} and {t.dtype}")
    if t0.dtype not in _DTYPES:
        raise TypeError(f"bitorder GEMMs take float16 or bfloat16 (fp8: bitorder.scaled_mm); got {t0.dtype}")
    return _DTYPES[t0.dtype]


@functools.lru_cache(maxsize=65536)
def _describe(query, dtype: str, bias: bool):
    """(answer dict, GEMMDesc or None) for a heuristic query (bias pointer blanked: only its alignment counts)."""
    from ..cublas import lt
    from ..cublas.profile import ArchProfile, layout_of

    answers = lt.heuristic(query, 1)
    if not answers:
        return None, None
    ans = answers[0].to_dict()
    return ans, ArchProfile.load().describe(ans, query.k, dtype, bias, layout=layout_of(query))


def _plan2(a, b, bias, call: str) -> Plan:
    """Plan one 2-D or batched product as torch hands it to cuBLAS (a, b as torch will pass them)."""
    from ..cublas import torch_call

    t0 = time.perf_counter()
    dtype = _DTYPES[a.dtype]
    M, K, N = a.shape[-2], a.shape[-1], b.shape[-1]
    if M == 0 or N == 0 or K == 0:
        return Plan("cublas", None, None, call, "empty problem")
    if unaligned(a, b, bias):
        return Plan("cublas", None, None, call, "operand address not 16-byte aligned")
    out = torch.empty((*a.shape[:-2], M, N), dtype=a.dtype, device=a.device)
    try:
        q = torch_call.lt_query(a, b, out, bias)
    except ValueError:
        return Plan("cublas", None, None, call, "operand layout torch copies")
    ans, desc = _describe(dataclasses.replace(q, bias_ptr=0), dtype, bias is not None)
    us = (time.perf_counter() - t0) * 1e6
    if ans is None:
        return Plan("cublas", None, None, call, "no heuristic answer", us)
    if desc is None:
        from ..cublas.profile import cublas_defect

        desc = _unsplit_candidate(ans, a, b, bias, dtype)
        if desc is not None:
            return Plan("triton", desc, ans, call, "run-time split answered, segment-K off (segment_k.UNSPLIT)", us)
        order = _segment_k_candidate(ans, a, b, bias, dtype)
        if order is not None:
            return Plan("segk", None, ans, call, "segment-K run-time split (bitorder.gemm.segment_k)", us, order)
        order = _gemv_candidate(ans, a, b, bias, dtype)
        if order is not None:
            return Plan("simt", None, ans, call, "gemv rule (bitorder.cublas.gemv_rule)", us, order)
        order = _dot_candidate(ans, a, b) if bias is None else None
        if order is not None:
            return Plan("dot", None, ans, call, "dot path (bitorder.emulate.dot)", us, order)
        order = _dots_candidate(ans, a, b, bias)
        if order is not None:
            return Plan("dots", None, ans, call, "dot path per output (bitorder.emulate.dot)", us, order,
                        bias_at=os.environ.get("BITORDER_DOTS_BIAS", "acc") if bias is not None and _trial() else "acc")
        order = _gemmsn_candidate(ans, a, b, bias)
        if order is not None:
            return Plan("rows", None, ans, call, "gemmSN: a gemv per row (bitorder.cublas.gemv_rule)", us, order)
        order = _magma_candidate(ans, a, b)
        if order is not None:
            return Plan("seq", None, ans, call, "magma: one fp32 chain per output (bitorder.cublas.gemv_rule)", us, order)
        if _k1_candidate(ans, a, b, bias):
            return Plan("k1", None, ans, call, "gemmk1, K = 1: one exact fp32 product per output, one rounding", us)
        defect = cublas_defect(ans, K)
        reason = f"{defect}; torch's bytes are returned as they are" if defect else \
            f"algo {ans['algo_id']} answer outside the arch profile's verified entries" + _batch_note(ans, a, b)
        return Plan("cublas", None, ans, call, reason, us)
    return Plan("triton", desc, ans, call, "", us)


def _batch_note(ans, a, b) -> str:
    """Why a batched SIMT answer (gemv 13, gemmSN 11) past the batches its rules hold went to cuBLAS: cuBLAS picks
    those launches by the batch too, and past the bounds no probe read them (2026-12-03d: 16x8 blocks, gemv2T)."""
    from ..cublas.gemv_rule import MAX_DOT_BATCH, MAX_GEMV_BATCH
    batch = _batch(a, b)
    if int(ans.get("algo_id", -1)) not in (11, 13) or batch <= MAX_GEMV_BATCH:
        return ""
    return (f" (batch {batch}: SIMT rules hold to batch {MAX_GEMV_BATCH}, option 10's batched dots to {MAX_DOT_BATCH};"
            " past that cuBLAS's launch was not probed)")


def _unsplit_candidate(ans, a, b, bias, dtype):
    """The plain GEMMDesc (one wgmma k16 chain in K order, the bias in fp32 before the rounding) for a 2-D call
    answered with a run-time split in the region where its kernel runs segment-K off (segment_k.UNSPLIT), or None."""
    layout = _run_time_split_layout(ans, a, b)
    from ..cublas import segment_k
    from ..cublas.profile import BIAS_EPILOGUE
    rule = layout and segment_k.unsplit(ans, a.shape[0], b.shape[1], a.shape[1], dtype, bias is not None, layout)
    if not rule:
        return None
    epi = BIAS_EPILOGUE[rule] if bias is not None else ("round",)
    return GEMMDesc("plain", dtype, a.shape[1], "wgmma", 16, epilogue=epi)


def _segment_k_candidate(ans, a, b, bias, dtype):
    """The SegmentKPlan for a 2-D bias-free call that cuBLAS answered with a run-time split (split_k -1:
    algorithms 41 and 42) in the region its records cover (the torch layouts its kernel lists: "nt" is a
    row-major, b a transposed view of a row-major tensor), or None. segment_k.plan answers for a verified
    kernel or under BITORDER_UNVERIFIED=1."""
    layout = _run_time_split_layout(ans, a, b)
    if layout is None or bias is not None:
        return None
    from ..cublas import segment_k
    return segment_k.plan(ans, a.shape[0], b.shape[1], a.shape[1], dtype, layout=layout)


def _run_time_split_layout(ans, a, b) -> str | None:
    """The torch layout letters of a 2-D call cuBLAS answered with a run-time split (split_k -1), or None."""
    if ans.get("split_k") != -1 or a.dim() != 2 or b.dim() != 2:
        return None
    return _torch_layout(a, b)


def _torch_layout(a, b) -> str | None:
    """The gate's layout letters of a 2-D product: per operand "n" (row-major) or "t" (a transposed view of
    a row-major tensor); None for any other strides."""
    la = "n" if a.stride(1) == 1 else "t" if a.stride(0) == 1 else None
    lb = "n" if b.stride(1) == 1 else "t" if b.stride(0) == 1 else None
    return la + lb if la and lb else None


def _gemv_candidate(ans, a, b, bias, dtype):
    """The GemvOrder bitorder.cublas.gemv_rule predicts for an algorithm-13 answer, for a 2-D or
    batched product without a bias with M == 1 or N == 1, or F.linear with M == 1 and a bias on
    cuBLASLt's bias path (unless BITORDER_SIMT=0); None otherwise, or under
    BITORDER_GEMV_RULE=0 (the escape hatch: those calls then run cuBLAS). The default since the
    whole fp16/bf16 gate with the rule on returned 45,120 of 45,120 identical (2026-12-01)."""
    if os.environ.get("BITORDER_GEMV_RULE") == "0":
        return None
    if a.dim() != b.dim() or (a.shape[-2] != 1 and b.shape[-1] != 1):
        return None
    lt_bias = bias is not None and a.dim() == 2 and a.shape[0] == 1 and b.shape[1] > 1 and _simt_on()
    if bias is not None and not lt_bias:
        return None
    from ..cublas.gemv_rule import batched_dot_order, order_for
    from .simt import supported
    if a.dim() == 3 and a.shape[-2] == 1 and b.shape[-1] == 1:
        # a batch of dots: the option names the kernel only at some K (and batch)
        order = batched_dot_order(ans, a.shape[-1], dtype, batch=_batch(a, b))
    else:
        order = order_for(ans, a.shape[-1], dtype, outputs=max(a.shape[-2], b.shape[-1]), batch=_batch(a, b))
    if order is not None and lt_bias:      # cuBLASLt's BIAS epilogue on its gemv path (F.linear, M = 1)
        from ..cublas.gemv_rule import lt_bias_placement
        order = order.replace(bias=lt_bias_placement(ans))
    return order if order is not None and not supported(order) else None


def _dot_candidate(ans, a, b):
    """The DotOrder (bitorder.emulate.dot) of an algorithm-14 answer for a 2-D (1, K) @ (K, 1) whose
    vectors are contiguous along K; None otherwise, or under BITORDER_DOT=0 (then cuBLAS runs it).
    On the H200 (2026-12-01): 6,600 ladder and random-K calls and the gate's M = N = 1 cases, three
    draws each, identical; a planted fault fails."""
    if os.environ.get("BITORDER_DOT") == "0" or int(ans.get("algo_id", -1)) != 14 or a.dim() != 2 or b.dim() != 2:
        return None
    K, grid = a.shape[1], int(ans.get("split_k") or 0)
    if a.shape[0] != 1 or b.shape[1] != 1 or K < 1 or grid < 1 or (K > 1 and (a.stride(1) != 1 or b.stride(0) != 1)):
        return None
    from ..emulate.dot import DotOrder
    return DotOrder(grid)


def _dots_candidate(ans, a, b, bias=None):
    """The DotOrder of an algorithm-14 answer on a 2-D product with one output side of 1 (N = 1 with
    b's column along K, M = 1 with a's row along K; F.linear's bias in the dot's fp32 sum): a dot
    per output, each as the M = N = 1 call runs it; pairs (vec 2) where both vectors are contiguous
    along K, single elements (vec 1) where the other is strided (a transposed with N = 1, b
    row-major with M = 1). On the H200: 61 + 99 contiguous calls identical (2026-12-01b sn-check,
    2026-12-01c ground), 25 of 25 with a bias; 194 of 194 strided or with more than 64 outputs and
    22 designed strided rows (2026-12-01d ground). None under BITORDER_SIMT=0."""
    if not _simt_on() or int(ans.get("algo_id", -1)) != 14 or a.dim() != 2 or b.dim() != 2:
        return None
    M, K, N, grid = a.shape[0], a.shape[1], b.shape[1], int(ans.get("split_k") or 0)
    column = N == 1 and M >= 2 and (K == 1 or b.stride(0) == 1) and bias is None
    row = M == 1 and N >= 2 and (K == 1 or a.stride(1) == 1)
    if not (column or row) or grid < 1:
        return None
    from ..emulate.dot import DotOrder
    return DotOrder(grid, vec=2 if K == 1 or (a.stride(1) == 1 and b.stride(0) == 1) else 1)


def _trial() -> bool:
    """Whether candidates not yet gated may plan (BITORDER_UNVERIFIED=1, set by the GPU checks)."""
    from ..cublas.profile import candidates_allowed
    return candidates_allowed()


def _simt_on() -> bool:
    """The small-M SIMT paths (gemmSN rows, magma seq, dots, the Lt bias gemv): on unless BITORDER_SIMT=0."""
    return os.environ.get("BITORDER_SIMT") != "0"


def _gemmsn_candidate(ans, a, b, bias):
    """The GemvOrder of an algorithm-11 answer where bitorder.cublas.gemv_rule pinned it (gemmSN's
    TN kernel, no bias; its NN kernel, bias in fp32 before the rounding; 2-D or batched); None
    otherwise or under BITORDER_SIMT=0. On the H200 (2026-12-01b sn-check) 4,503 calls, three
    draws each, identical but one (the 2-lane NN kernel at K = 739, then read as banked every 256, not
    128: 2026-12-01e, 109 fresh calls past K = 256 identical)."""
    if not _simt_on() or a.dim() != b.dim() or a.stride(-1) != 1 or b.shape[-1] < 2:
        return None
    layout = "nt" if b.stride(-2) == 1 else "nn" if b.stride(-1) == 1 else "?"
    from ..cublas.gemv_rule import gemmsn_order_for
    return gemmsn_order_for(ans, layout, a.shape[-2], bias is not None, k=a.shape[-1], batch=_batch(a, b))


def _batch(a, b) -> int:
    """The batch of a product of two tensors of one rank (2-D: 1; batched: the larger leading size)."""
    return max(a.shape[0], b.shape[0]) if a.dim() == 3 else 1


def _magma_candidate(ans, a, b):
    """MAGMA_ORDER (bitorder.cublas.gemv_rule) for an algorithm-16 answer on a 2-D product (any
    layout, with or without a bias) or a batch of them; None under BITORDER_SIMT=0. On the H200
    (2026-12-01b sn-check) 1,710 calls, three draws each, identical. Algorithm 56 (CUTLASS's sm80
    ffma kernels: each thread's outputs one fma chain in K order) takes the same order (2026-12-01c:
    125 fresh calls identical, then the whole gate)."""
    if not _simt_on() or a.dim() != b.dim():
        return None
    from ..cublas.gemv_rule import MAGMA_ORDER, magma_order_for
    if int(ans.get("algo_id", -1)) == 56:
        return MAGMA_ORDER
    return magma_order_for(ans)


def _k1_candidate(ans, a, b, bias) -> bool:
    """Whether a K = 1 product without a bias answered by gemmk1 (algorithm 12) is planned "k1": one
    exact fp32 product per output, one rounding (2-D or batched; not under BITORDER_SIMT=0)."""
    return bias is None and a.shape[-1] == 1 and int(ans.get("algo_id", -1)) == 12 and _simt_on()


def unaligned(*tensors) -> bool:
    """Whether an operand (None skipped) sits at an address not 16-byte aligned: cuBLAS picks other
    kernels there; the H200 showed a plan that missed torch's bytes (2026-11-30, an operand shifted
    by one element) and no gate covers them, so such calls are not planned."""
    return any(t is not None and t.data_ptr() % 16 for t in tensors)


def _lt_bias_path(x, w, bias) -> bool:
    """torch 2.11's isInputCompliesAddmmCudaLt for F.linear on a 2-D input with a bias."""
    N, K = w.shape
    return (bias.dim() == 1 and bias.is_contiguous() and bias.shape[0] == N and K > 1 and N > 1)


# F.linear with N = 1 off the Lt bias path over an nvjet answer (torch copies the bias into C, beta = 1):
# the unsplit kernel (nvjet_*_badd_*) rounds its chain to the output type, then adds C and rounds again;
# the split one (nvjet_*_bx_splitK_* + splitKreduce) adds C to the fp32 sum of the parts before the one
# rounding. Read on the CPU from the 2026-12-01g survey of 63 such calls (walks and sampled bits: 33 of
# 33 unsplit and 27 of 27 split fit these and not the other placement; benchmarks/results/2026-12-01g-gpu).
# On fresh draws (2026-12-01g call 4) the 27 split calls were identical; the unsplit ones differed on every
# output because launch.run then dropped a plain chain's bias_out (fixed). After the fix (2026-12-02 call 1,
# benchmarks/results/2026-12-02-gpu): the 63 addmm calls 63 of 63 identical and 60 more from a fresh 4x
# census identical; the placements swapped (planted fault) differ on 60 of 63.
ADDMM_NVJET = (66,)
ADDMM_NVJET_BIAS = {"plain": "bias_out", "split_k": "bias_acc"}      # by the descriptor's family


def _addmm(a, b, bias) -> Plan:
    """F.linear with a bias off the cuBLASLt bias path (a 2-D, folded if it came 3-D): torch copies the bias into the output and
    runs the product with beta = 1 (cublasGemmEx). K == 1: path "k1"; an output column (N == 1) is
    a gemv (or, M == N == 1, a dot) whose bias meets the fp32 sum before the one rounding (GemvOrder
    bias "acc"), or an nvjet chain with the bias where ADDMM_NVJET_BIAS puts it, planned from the
    bias-free call's answer. Otherwise cuBLAS (the bias-free answer kept in the plan)."""
    if a.shape[1] == 1 and bias.dim() == 1:
        # K == 1: one exact product per output (fp16/bf16 products fit fp32), the bias added in
        # fp32, one rounding: no order left to choose (the whole gate, 2026-12-01: 248 such cases)
        return Plan("k1", None, None, "gemm", "K = 1 addmm: fp32 product + bias, one rounding")
    answer = None
    if b.shape[1] == 1 and bias.dim() == 1:
        p = _plan2(a, b, None, "gemm")
        answer = p.answer       # kept on a fallback: what the bias-free call was answered (the gates' records)
        if p.path == "simt":
            return dataclasses.replace(p, reason="gemv rule, beta = 1 bias (addmm)", order=p.order.replace(bias="acc"))
        if p.path in ("dot", "dots", "seq"):
            return dataclasses.replace(p, reason=f"{p.reason}, beta = 1 bias in fp32 (addmm)")
        if p.path == "triton" and p.answer is not None and int(p.answer.get("algo_id", -1)) in ADDMM_NVJET:
            from ..cublas.profile import BIAS_EPILOGUE
            return dataclasses.replace(p, desc=p.desc.replace(epilogue=BIAS_EPILOGUE[ADDMM_NVJET_BIAS[p.desc.family]]),
                                       reason=f"{p.reason}, beta = 1 bias (addmm)")
    return Plan("cublas", None, answer, "gemm", "addmm without the cuBLASLt bias path")


def plan(a, b, bias=None) -> Plan:
    """The plan for bitorder.matmul(a, b), or bitorder.linear(a, b.T, bias) when a bias is given."""
    return _route(a, b, bias)[0]


def _route(a, b, bias):
    """(plan, a, b, how): the product torch actually runs for this call."""
    tensors = [a, b] + ([bias] if bias is not None else [])
    _check(*tensors)
    if a.dim() == 2 and b.dim() == 2:
        if bias is not None and not _lt_bias_path(a, b.t(), bias):
            return _addmm(a, b, bias), a, b, "2d"
        return _plan2(a, b, bias, "gemm_and_bias" if bias is not None else "gemm"), a, b, "2d"
    if a.dim() == 3 and b.dim() == 2:
        folded = a.stride(0) == a.stride(1) * a.shape[1] or a.shape[0] == 1
        if folded and (bias is None or a.is_contiguous()):
            a2 = a.reshape(a.shape[0] * a.shape[1], a.shape[2])
            if bias is not None and not _lt_bias_path(a2, b.t(), bias):
                p = _addmm(a2, b, bias)
                return (p, a2, b, "fold") if p.path in ("simt", "k1", "dot", "dots", "seq") else (p, a, b, "torch")
            return _plan2(a2, b, bias, "gemm_and_bias" if bias is not None else "gemm"), a2, b, "fold"
        if bias is not None:  # torch: matmul then a separate add_ of the bias
            p, a3, b3, inner = _route(a, b, None)
            return p, a3, b3, "bias_after:" + inner
        b3 = b.unsqueeze(0).expand(a.shape[0], *b.shape)
        return _plan2(a, b3, None, "bgemm"), a, b3, "3d"
    if a.dim() == 3 and b.dim() == 3 and bias is None:
        if a.shape[0] != b.shape[0]:
            return Plan("cublas", None, None, "bgemm", "broadcast batch"), a, b, "torch"
        if a.shape[0] == 1:  # torch runs a batch of one as a plain gemm
            return _plan2(a[0], b[0], None, "gemm"), a[0], b[0], "batch1"
        return _plan2(a, b, None, "bgemm"), a, b, "3d"
    return Plan("cublas", None, None, "?", f"{a.dim()}-D @ {b.dim()}-D"), a, b, "torch"


_ROUTES: dict = {}


def _candidate_env():
    return tuple(os.environ.get(v) for v in ("BITORDER_UNVERIFIED", "BITORDER_GEMV_RULE", "BITORDER_DOT", "BITORDER_SIMT",
                                            "BITORDER_DOTS_BIAS"))


def _route_cached(a, b, bias):
    """_route, memoised on what decides it: shapes, strides, dtype and pointer alignments."""
    from ..cublas.torch_call import alignment

    key = (a.shape, a.stride(), b.shape, b.stride(), a.dtype, a.device.index,
           alignment(a.data_ptr()), alignment(b.data_ptr()),
           None if bias is None else (bias.shape, bias.stride(), bias.dtype, alignment(bias.data_ptr())),
           _candidate_env())   # (a gate turning candidates on or off mid-process gets fresh plans)
    hit = _ROUTES.get(key)
    if hit is None:
        plan_, _, _, how = _route(a, b, bias)
        if len(_ROUTES) > 65536:
            _ROUTES.clear()
        _ROUTES[key] = hit = (plan_, how)
    return hit


def _views(a, b, how):
    """The operands torch hands cuBLAS for a routed call."""
    how = how.removeprefix("bias_after:")
    if how == "fold":
        return a.reshape(a.shape[0] * a.shape[1], a.shape[2]), b
    if how == "batch1":
        return a[0], b[0]
    if how == "3d" and a.dim() == 3 and b.dim() == 2:
        return a, b.unsqueeze(0).expand(a.shape[0], *b.shape)
    return a, b


def _run(a, b, bias, torch_fn):
    _check(*([a, b] + ([bias] if bias is not None else [])))
    p, how = _route_cached(a, b, bias)
    _count(p)
    if p.path == "cublas":
        return torch_fn()
    a2, b2 = _views(a, b, how)
    bias_after = how.startswith("bias_after:")
    if p.path == "k1" and (bias is None or bias_after):     # gemmk1 (_k1_candidate): exact products, one rounding
        out = k1_product(a2, b2)
    elif p.path == "k1":            # K == 1 with a bias (_addmm): exact products, one fp32 add, one rounding
        out = (a2.float() * b2.float() + bias.float()).to(a.dtype)
    elif p.path == "simt":          # a gemv under its rule (_gemv_candidate; a bias only through _addmm)
        from .simt import gemv
        out = gemv(a2, b2, p.order, bias=None if bias_after else bias)
    elif p.path == "rows":          # gemmSN (_gemmsn_candidate): every row of a its own gemv, same order
        from .simt import gemv_rows, gemv_rows_batched
        bias_r = None if bias_after else bias
        out = gemv_rows(a2, b2, p.order, bias=bias_r) if a2.dim() == 2 else \
            gemv_rows_batched(a2, b2, p.order, bias=bias_r)
    elif p.path == "dots":          # algorithm 14 with one output side > 1 (_dots_candidate): a dot per output
        from .simt import dot
        bias_d = None if bias_after else bias
        in_dot = bias_d is not None and p.bias_at == "acc"
        out = dot(a2, b2, p.order, bias=bias_d if in_dot else None)
        if bias_d is not None and not in_dot:      # added to the rounded dots, rounded again
            out = (out.float() + bias_d.float()).to(out.dtype)
    elif p.path == "seq":           # magma (_magma_candidate): one fp32 chain per output
        from .simt import seq
        out = seq(a2, b2, bias=None if bias_after else bias)
    elif p.path == "segk":          # the run-time split (_segment_k_candidate: 2-D, no bias)
        from .segment_k import run as segment_k
        out = segment_k(a2, b2, p.order)
    elif p.path == "dot":           # cuBLAS's dot path (_dot_candidate; a bias only through _addmm)
        from .simt import dot
        out = dot(a2, b2, p.order, bias=None if bias_after else bias)
    else:
        out = launch.run(a2, b2, p.desc, None if bias_after else bias)
    base = how.removeprefix("bias_after:")
    if base == "fold":
        out = out.view(*a.shape[:-1], b.shape[-1])
    elif base == "batch1":
        out = out.unsqueeze(0)
    if bias_after:
        out.add_(bias)  # torch's own elementwise add, as F.linear does for this input
    return out


def k1_product(a, b, add_zero: bool = False):
    """torch.matmul(a, b)'s exact bytes for a (.., M, 1) @ b (.., 1, N) that cuBLAS runs as gemmk1
    (algorithm 12): each output the exact fp32 product (fp16 / bf16 products fit fp32) rounded once,
    a -0 product kept -0. add_zero=True adds +0 first (a -0 product gives +0): the alternative
    benchmarks/probe_k1.py rejected on the H200 (2026-12-01c: every algorithm-12 shape kept -0)."""
    p = a.float() * b.float()     # (.., M, 1) * (.., 1, N): one exact product per output (no TF32)
    return (p + 0.0 if add_zero else p).to(a.dtype)


def matmul(a, b):
    """torch.matmul(a, b)'s exact bytes for fp16/bf16 CUDA tensors: 2-D @ 2-D, 3-D @ 3-D (bmm)
    and 3-D @ 2-D, each operand row- or column-major, on the H200 with cuBLAS 13.1.
    Shapes the arch profile does not cover run torch.matmul itself (counted in stats())."""
    return _run(a, b, None, lambda: torch.matmul(a, b))


def linear(x, weight, bias=None):
    """F.linear(x, weight, bias)'s exact bytes for fp16/bf16 CUDA tensors (x 2-D or 3-D),
    including cuBLASLt's BIAS epilogue when torch takes that path; otherwise as matmul."""
    if weight.dim() != 2:
        raise ValueError(f"weight must be 2-D (out_features, in_features); got {tuple(weight.shape)}")
    return _run(x, weight.t(), bias, lambda: F.linear(x, weight, bias))
