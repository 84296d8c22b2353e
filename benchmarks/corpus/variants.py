"""The corpus's kernels again over other input dtypes and 16 warps: the same sources, other compiled code.

Each reduction, normalization, scan and elementwise kernel of the hand-written modules (not the GEMMs and
attention, which have their dtypes already, nor TorchInductor's captures, whose dtypes the model fixed) is
also run with its floating-point inputs in the two 16-bit types it does not already read (fp32 -> fp16 and
bf16; fp16 -> fp32 and bf16; ...): loads then convert (cvt) before the arithmetic, vector widths change, and
the partition is again per launch grid. Every space that tunes num_warps over 1-8 also takes 16 warps
(`with_16_warps`, applied to the base kernels and their variants alike)."""
from __future__ import annotations

import dataclasses

import torch
import triton
from torch._subclasses.fake_tensor import FakeTensorMode

_TYPES = {torch.float32: "f32", torch.float16: "f16", torch.bfloat16: "bf16"}
RETYPED_FAMILIES = ("reduction", "normalization", "scan", "elementwise")


def with_16_warps(spec):
    """spec with each configuration of num_warps 8 repeated at 16 (the spaces that stop at 8)."""
    if not any(c.num_warps == 8 for c in spec.space) or any(c.num_warps == 16 for c in spec.space):
        return spec
    extra = [triton.Config(dict(c.kwargs), num_warps=16, num_stages=c.num_stages) for c in spec.space
             if c.num_warps == 8]
    return dataclasses.replace(spec, space=[*spec.space, *extra])


def _input_dtype(spec):
    """The floating dtype of the spec's inputs (one for all of them), or None where there are none or several.
    The arguments are made as fake tensors (shapes and dtypes, no data: every corpus import, in every gate worker,
    asks this of ~120 kernels); a make that needs data falls back to real CPU tensors."""
    try:
        with FakeTensorMode():
            return _one_dtype(spec, spec.make("cpu", 0))
    except Exception:
        return _one_dtype(spec, spec.make("cpu", 0))


def _one_dtype(spec, args):
    kinds = {v.dtype for k, v in args.items() if isinstance(v, torch.Tensor) and v.is_floating_point()
             and k not in spec.outputs}
    return next(iter(kinds)) if len(kinds) == 1 else None


def retyped(spec, dtype):
    """spec with every floating-point input tensor (outputs left as they are) converted to dtype, named
    `<name>_<dtype>`: the wide draws convert exactly to fp16 (|x| < 2^12) and round to bf16."""
    def make(device, seed):
        args = spec.make(device, seed)
        return {k: v.to(dtype) if isinstance(v, torch.Tensor) and v.is_floating_point() and k not in spec.outputs
                else v for k, v in args.items()}
    return dataclasses.replace(spec, name=f"{spec.name}_{_TYPES[dtype]}", make=make)


# Twins whose source Triton does not compile for that dtype (compiled for sm90 on the CPU, 2026-12-03f): the
# kernel's own math takes fp32 only, or a combine returns fp32 for 16-bit operands (tl.reduce refuses it).
NOT_RETYPED = {
    "welford": "f16 bf16",              # its combine mixes the input dtype with fp32 counts
    "l2norm": "f16 bf16",               # tl.sqrt takes fp32 or fp64
    "gelu_tanh": "f16 bf16",            # the fp32-only math of its tanh
    "pinned_layernorm": "f16 bf16",     # sqrt_rn / div_rn take fp32
    "pinned_rmsnorm": "f16 bf16",
    "pinned_softmax": "bf16",           # tl.maximum returns fp32 for bf16: the max's combine is refused
    "pinned_log_softmax": "bf16",
    "pinned_cross_entropy": "bf16",
}


def _refused(name: str) -> str:
    """NOT_RETYPED's entry for a kernel or its width twins (name_c128, name_c2048)."""
    return NOT_RETYPED.get(name.rsplit("_c", 1)[0] if name.rsplit("_c", 1)[-1].isdigit() else name, "")


def variants(specs):
    """The retyped twins of `specs` (those of RETYPED_FAMILIES with one input dtype), less NOT_RETYPED."""
    out = []
    for s in specs:
        base = _input_dtype(s) if s.family in RETYPED_FAMILIES else None
        if base in _TYPES:
            out += [retyped(s, t) for t in _TYPES if t != base and _TYPES[t] not in _refused(s.name).split()]
    return out
