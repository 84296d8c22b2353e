"""The CPU twin of a GEMMDesc: the exact bytes the H200 returns for that descriptor.

emulate.matmul(a, b, desc) composes the tensor-core step (tensorcore.py) as the
descriptor says: instruction groups laid over K (k_tail, k_step), the nest of
k_cuts each accumulated from zero (or, for a strided split, the k_cuts[0]-wide tiles
dealt to the parts in turn), partials rounded to partial_dtype, merged in
merge_order at merge_dtype, then the epilogue.
"""
from __future__ import annotations

import numpy as np

from ..desc import GEMMDesc
from . import tensorcore as tc

_NP_OUT = {"fp32": np.float32, "fp16": np.float16}


def np_dtype(name: str):
    """numpy dtype for a bitorder dtype name (ml_dtypes for bf16 and fp8)."""
    if name in _NP_OUT:
        return np.dtype(_NP_OUT[name])
    import ml_dtypes
    return np.dtype({"bf16": ml_dtypes.bfloat16, "e4m3": ml_dtypes.float8_e4m3fn,
                     "e5m2": ml_dtypes.float8_e5m2}[name])


# NaN as the H200 writes it: fp32 arithmetic and the tensor cores give 0x7FFFFFFF, and cvt.rn to
# fp16 / bf16 gives 0x7FFF. numpy keeps payloads (ml_dtypes writes bf16 NaN as 0x7FC0): the
# likely cause of the 2026-11-30b twin run's whole-row bf16 mismatches on its NaN row.
_NAN_BITS = {"fp32": (np.uint32, 0x7FFFFFFF), "fp16": (np.uint16, 0x7FFF), "bf16": (np.uint16, 0x7FFF)}


def to_format(x32: np.ndarray, dtype: str) -> np.ndarray:
    """fp32 values as an array of dtype (round to nearest even), NaN written canonically as the GPU does."""
    x32 = np.asarray(x32, np.float32)
    out = x32.astype(np_dtype(dtype))
    nan = np.isnan(x32)
    if dtype in _NAN_BITS and nan.any():
        ints, bits = _NAN_BITS[dtype]
        out = np.array(out)
        out.view(ints)[nan] = bits
    return out


def round_to(x32: np.ndarray, dtype: str) -> np.ndarray:
    """fp32 -> dtype, round to nearest even (overflow to inf), back as float32 values."""
    if dtype == "fp32":
        return np.asarray(x32, np.float32)
    return np.asarray(x32, np.float32).astype(np_dtype(dtype)).astype(np.float32)


def mul_rn(x, y) -> np.ndarray:
    """x * y in fp32, round to nearest (mul.rn.f32)."""
    with np.errstate(invalid="ignore", over="ignore", under="ignore"):
        return (np.asarray(x, np.float32) * np.asarray(y, np.float32)).astype(np.float32)


def add_rn(x: np.ndarray, y: np.ndarray, dtype: str = "fp32") -> np.ndarray:
    """x + y in fp32 (round to nearest), then rounded to dtype."""
    with np.errstate(invalid="ignore", over="ignore"):
        s = (np.asarray(x, np.float32) + np.asarray(y, np.float32)).astype(np.float32)
    return round_to(s, dtype)


def k_groups(desc: GEMMDesc, start: int, stop: int) -> list:
    """The instruction groups (start, stop) one K loop over [start, stop) issues, in order."""
    L = desc.instruction_k
    edges = []
    pos = start
    if desc.k_tail == "first":
        residue = (stop - start) % desc.k_step
        if residue:
            edges += [(s, min(s + L, start + residue)) for s in range(start, start + residue, L)]
            pos = start + residue
    edges += [(s, min(s + L, stop)) for s in range(pos, stop, L)]
    return edges


def _part(a, b, desc: GEMMDesc, start: int, stop: int, c0=None) -> np.ndarray:
    """One accumulator's chain over [start, stop): fp32, promotion applied for fp8."""
    fmt = desc.operand_dtype
    groups = k_groups(desc, start, stop)
    if desc.promotion is None:
        return tc.chain(a, b, groups, fmt, c0)
    # fp8 promotion: a fresh chain every `promotion` elements, added in with an RN fp32 add.
    # Intervals count from the part's start, or from k = 0 ("k0": a part that starts off a
    # multiple of the interval begins with a short one).
    P = desc.promotion
    first = start + P if desc.promotion_anchor != "k0" else (start // P + 1) * P
    edges = [start] + list(range(first, stop, P)) + [stop]
    acc = np.zeros((a.shape[0], b.shape[1]), np.float32) if c0 is None else np.asarray(c0, np.float32)
    for s, e in zip(edges, edges[1:]):
        acc = add_rn(acc, tc.chain(a, b, [g for g in groups if s <= g[0] < e], fmt))
    return acc


def _spans(start: int, stop: int, span: int) -> list:
    return [(s, min(s + span, stop)) for s in range(start, stop, span)]


def _reduce_levels(a, b, desc: GEMMDesc, start: int, stop: int, level: int, scale=None) -> list:
    """Partials of the innermost level for [start, stop), in K order (each times `scale`, rounded
    to fp32, when the epilogue scales parts)."""
    if level == len(desc.k_cuts):
        p = _part(a, b, desc, start, stop)
        return [p if scale is None else mul_rn(p, scale)]
    out = []
    spans = desc.outer_parts() if level == 0 else _spans(start, stop, desc.k_cuts[level])
    for s, e in spans:
        out += _reduce_levels(a, b, desc, s, e, level + 1, scale)
    return out


def _merge(parts: list, desc: GEMMDesc) -> np.ndarray:
    md, pd = desc.merge_dtype, desc.partial_dtype
    parts = [round_to(p, pd) for p in parts]
    if desc.merge_order == "sequential":
        acc = round_to(parts[0], md)
        for p in parts[1:]:
            acc = add_rn(acc, p, md)
        return acc
    if desc.merge_order == "tree":
        while len(parts) > 1:
            nxt = [add_rn(parts[i], parts[i + 1], md) for i in range(0, len(parts) - 1, 2)]
            parts = nxt + ([parts[-1]] if len(parts) % 2 else [])
        return parts[0]
    raise NotImplementedError(desc.merge_order)


SERIAL = ("serial_seeded", "serial_added")


def accumulate(a, b, desc: GEMMDesc, bias=None, scale=None) -> np.ndarray:
    """The fp32 value the K reduction hands to the epilogue, for float64 operand values.

    A serial merge (in-place split-K) adds the bias into the first part's accumulator,
    before that part is rounded (bias_acc), or to the last part's sum with the running output
    before its rounding (bias_last): pass it here, and epilogue() skips those steps.
    An epilogue with scale_parts multiplies each part by `scale` (the fp32 product
    scale_a * scale_b: a scalar, or (M, 1) * (1, N) for row-wise scales) before the merge.
    """
    K = desc.k
    if "scale_parts" in desc.epilogue:
        if scale is None:
            raise ValueError("the descriptor scales each part (scale_parts): give scale = scale_a * scale_b")
        scale = np.asarray(scale, np.float32)
    else:
        scale = None
    if desc.family == "plain":
        return _part(a, b, desc, 0, K)
    if desc.family == "split_k" and desc.merge_order in SERIAL:
        running = None
        for s, e in desc.outer_parts():
            if desc.merge_order == "serial_seeded" or running is None:
                acc = _part(a, b, desc, s, e, c0=running)
                acc = acc if scale is None else mul_rn(acc, scale)
                if running is None and bias is not None and "bias_acc" in desc.epilogue:
                    acc = add_rn(acc, np.asarray(bias, np.float64).astype(np.float32)[None, :])
            else:
                p = _part(a, b, desc, s, e)
                acc = add_rn(running, p if scale is None else mul_rn(p, scale), "fp32")
                if e == K and bias is not None and "bias_last" in desc.epilogue:   # the last part
                    acc = add_rn(acc, np.asarray(bias, np.float64).astype(np.float32)[None, :])
            running = round_to(acc, desc.partial_dtype)
        return running
    if desc.strided_split:
        # tiles dealt to the parts in turn: each part one chain from zero over its tiles in K order
        fmt, parts = desc.operand_dtype, []
        for tiles in desc.part_tiles():
            p = tc.chain(a, b, [g for s, e in tiles for g in k_groups(desc, s, e)], fmt)
            parts.append(p if scale is None else mul_rn(p, scale))
        return _merge(parts, desc)
    if desc.family == "split_k":
        return _merge(_reduce_levels(a, b, desc, 0, K, 0, scale), desc)
    raise NotImplementedError(f"emulate: family {desc.family} is not modelled yet")


def epilogue(acc: np.ndarray, desc: GEMMDesc, out_dtype: str, bias=None, scale_a=None, scale_b=None) -> np.ndarray:
    """Apply the descriptor's epilogue steps to the fp32 accumulator; returns out_dtype values.
    fp8 scales: scalars (tensor-wise) or scale_a (M, 1) and scale_b (1, N) (row-wise), fp32."""
    x = acc
    sa = None if scale_a is None else np.asarray(scale_a, np.float32)
    sb = None if scale_b is None else np.asarray(scale_b, np.float32)
    for step in desc.epilogue:
        if step in ("scale", "scale_a", "scale_b", "scale_bias_fma") and (sa is None or sb is None):
            raise ValueError(f"the descriptor's epilogue multiplies by the fp8 scales ({step}): give scale_a and scale_b")
        if step == "scale_parts":
            continue  # applied to each part by accumulate()
        if step == "scale":
            x = mul_rn(x, mul_rn(sa, sb))
        elif step == "scale_a":
            x = mul_rn(x, sa)
        elif step == "scale_b":
            x = mul_rn(x, sb)
        elif step == "scale_bias_fma":
            from ..math import fma32
            x = fma32(x, mul_rn(sa, sb), np.asarray(bias, np.float32)[None, :])
        elif (step == "bias_acc" and desc.merge_order in SERIAL) or step == "bias_last":
            continue  # added into the first (bias_acc) or last (bias_last) part by accumulate()
        elif step == "bias_acc":
            x = add_rn(x, np.asarray(bias, np.float64).astype(np.float32)[None, :])
        elif step == "round":
            x = round_to(x, out_dtype)
        elif step == "bias_out":
            x = add_rn(x, np.asarray(bias, np.float32)[None, :], out_dtype)
        elif step == "add_zero":   # +0 + x: -0 becomes +0, every other value (NaN included) stays
            x = np.where(x == 0, np.float32(0), x)
        else:
            raise NotImplementedError(step)
    return to_format(x, out_dtype)


def matmul(a, b, desc: GEMMDesc, bias=None, out_dtype: str | None = None, scale_a=None, scale_b=None) -> np.ndarray:
    """The H200's exact output for C = a @ b (+ bias) under `desc`.

    a: (M, K), b: (K, N) numpy arrays of the operand type (float16, ml_dtypes
    bfloat16 / float8); returns (M, N) of out_dtype (default: the operand type).
    """
    a = np.asarray(a)
    b = np.asarray(b)
    if a.ndim != 2 or b.ndim != 2 or a.shape[1] != b.shape[0]:
        raise ValueError(f"emulate.matmul takes (M, K) @ (K, N); got {a.shape} @ {b.shape}")
    if a.shape[1] != desc.k:
        raise ValueError(f"the descriptor describes K={desc.k}, the operands have K={a.shape[1]}")
    if (bias is None) == any(s in desc.epilogue for s in ("bias_acc", "bias_last", "bias_out", "scale_bias_fma")):
        raise ValueError("a bias must be given exactly when the descriptor's epilogue adds one")
    scale = None
    if "scale_parts" in desc.epilogue:
        if scale_a is None or scale_b is None:
            raise ValueError("the descriptor scales each part (scale_parts): give scale_a and scale_b")
        scale = mul_rn(np.asarray(scale_a, np.float32), np.asarray(scale_b, np.float32))
    acc = accumulate(a.astype(np.float64), b.astype(np.float64), desc, bias, scale)
    return epilogue(acc, desc, out_dtype or desc.operand_dtype, bias, scale_a, scale_b)
