"""Replaying a GPU call on the CPU: a plan saved on the H200 machine, operands anywhere.

    json_text = bitorder.plan(a, b).to_json()          # on the GPU machine
    c = bitorder.emulate.replay(json_text, a_cpu, b_cpu)  # here: the H200's bytes

Operands may be numpy arrays or CPU torch tensors (fp16, bf16, fp8), 2-D or batched
(B, M, K) @ (B, K, N) or (B, M, K) @ (K, N); the result has their type and kind.
"""
from __future__ import annotations

import json

import numpy as np

from ..desc import GEMMDesc
from .gemm import matmul, np_dtype

_TORCH_NAMES = {"torch.float16": "fp16", "torch.bfloat16": "bf16", "torch.float8_e4m3fn": "e4m3",
                "torch.float8_e5m2": "e5m2"}


def to_numpy(x):
    """(numpy array, how to give a result back): torch CPU tensors become numpy with the
    same bits (bf16 and fp8 through ml_dtypes); numpy arrays pass through."""
    if isinstance(x, np.ndarray):
        return x, lambda y: y
    name = _TORCH_NAMES.get(str(getattr(x, "dtype", "")))
    if name is None:
        raise TypeError(f"replay takes numpy arrays or fp16/bf16/fp8 CPU torch tensors, got {type(x).__name__} "
                        f"{getattr(x, 'dtype', '')}")
    import torch
    if x.device.type != "cpu":
        raise ValueError("replay runs on the CPU: move the operands with .cpu() first")
    ints = {1: torch.uint8, 2: torch.int16}[x.element_size()]
    arr = x.contiguous().view(ints).numpy().view(np_dtype(name))

    def back(y):
        out = {np.dtype(np.float32): torch.float32, np.dtype(np_dtype("fp16")): torch.float16,
               np.dtype(np_dtype("bf16")): torch.bfloat16}.get(y.dtype, x.dtype)   # fp8's outputs differ
        return torch.from_numpy(np.ascontiguousarray(y).view({1: np.uint8, 2: np.int16, 4: np.int32}[y.itemsize])).view(out)
    return arr, back


def _saved(plan):
    """A saved plan read once: a GEMMDesc as it is, a Plan's JSON or dict as a dict."""
    if isinstance(plan, GEMMDesc):
        return plan
    return json.loads(plan) if isinstance(plan, str) else dict(plan)


def _desc(plan) -> GEMMDesc:
    d = _saved(plan)
    if isinstance(d, GEMMDesc):
        return d
    if d.get("path") != "triton" or d.get("desc") is None:
        raise ValueError(f"this call ran cuBLAS itself ({d.get('reason') or 'no descriptor'}); there is no "
                         "descriptor to replay")
    return GEMMDesc.from_dict(d["desc"]) if isinstance(d["desc"], dict) else GEMMDesc.from_json(d["desc"])


def _segment_k(plan):
    """The SegmentKPlan of a saved plan whose path is "segk" (cuBLAS's run-time split), else None."""
    d = _saved(plan)
    if isinstance(d, GEMMDesc) or d.get("path") != "segk":
        return None
    from ..cublas.segment_k import SegmentKPlan
    fields = dict(d["order"])
    fields["bounds"] = tuple(fields["bounds"])
    return SegmentKPlan(**fields)


def _replay_segment_k(p, a, b, bias):
    """segment_k.matmul on a 2-D product (the GPU path's bits contract: bitorder.gemm.segment_k)."""
    from ..cublas.segment_k import matmul as segment_k_matmul
    (a, back), (b, _) = to_numpy(a), to_numpy(b)
    if bias is not None or a.ndim != 2 or b.ndim != 2:
        raise ValueError("a segment-K plan is a 2-D product without a bias")
    return back(segment_k_matmul(a.astype(np.float64), b.astype(np.float64), p))


def replay(plan, a, b, bias=None, scale_a=None, scale_b=None, out_dtype: str | None = None):
    """The exact bytes the H200 returned for the planned call on these operands.

    plan: a Plan's JSON (Plan.to_json()), its dict, or a GEMMDesc. Returns what
    bitorder.matmul (or linear with the bias) returned on the GPU, bit for bit, for every
    descriptor the twin models and for segment-K plans (path "segk"); for bitorder.scaled_mm's
    plans pass its fp32 scales (numpy or CPU tensors) and out_dtype ("bf16", "fp16" or "fp32")."""
    plan = _saved(plan)     # (JSON parsed once for both readings below)
    segk = _segment_k(plan)
    if segk is not None:
        return _replay_segment_k(segk, a, b, bias)
    desc = _desc(plan)
    (a, back), (b, _) = to_numpy(a), to_numpy(b)
    bias = None if bias is None else to_numpy(bias)[0]
    if scale_a is not None or scale_b is not None:
        if a.ndim != 2 or b.ndim != 2:
            raise ValueError("scaled products are 2-D")
        sa, sb = (np.asarray(s.numpy() if hasattr(s, "numpy") else s, dtype=np.float32) for s in (scale_a, scale_b))
        return back(matmul(a, b, desc, bias, out_dtype, sa, sb))
    if a.ndim == 2 and b.ndim == 2:
        return back(matmul(a, b, desc, bias, out_dtype))
    if a.ndim != 3 or b.ndim not in (2, 3):
        raise ValueError(f"replay takes 2-D or batched 3-D operands, got {a.shape} @ {b.shape}")
    if b.ndim == 3 and b.shape[0] != a.shape[0]:
        raise ValueError(f"batch sizes differ: {a.shape[0]} vs {b.shape[0]}")
    out = np.stack([matmul(a[i], b[i] if b.ndim == 3 else b, desc, bias) for i in range(a.shape[0])])
    return back(out)


def plan(saved):
    """A saved plan (Plan.to_json() from the GPU machine, its dict, or a GEMMDesc) as a function
    (a, b, bias=None) -> the exact bytes the H200 returned for that call on those operands:
    bitorder.emulate.plan(text)(a, b) is replay(text, a, b)."""
    desc = _desc(saved)     # fails here, clearly, for a plan that ran cuBLAS itself

    def run(a, b, bias=None):
        return replay(desc, a, b, bias)
    run.desc = desc
    return run
