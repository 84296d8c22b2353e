"""Pinned reductions: a balanced tree in logical element order, whatever the layout.

Paper sections 3.1 and 5. A reduction over an axis of size 2 lowers to exactly one
combine per output element in Triton 3.6, whether the pair sits in registers, lanes or
warps (h200-facts.md), and a combine of two values is commutative. So reshaping the
axis to [n/2, 2] and reducing the 2, log2(n) times, fixes the tree to
((x0+x1)+(x2+x3))+...: neighbours first, in logical order, for any layout, num_warps,
num_stages, block size of the other axes or pointer alignment. The reshapes keep
can_reorder=False, which never moves data.

tl.sum's pinned combine is an add with explicit rounding (add.rn on NVIDIA, v_add on
AMD, as inline assembly): neither LLVM nor ptxas may contract a product into it, so
tl.sum(a * b, pinned=True) keeps its bits with enable_fp_fusion on or off.

Installed on import of bitorder.language (bitorder imports it): tl.sum, x.sum,
tl.reduce and x.reduce take pinned=; nothing in the installed Triton is edited.
"""
from __future__ import annotations

import contextlib
import os

import triton
import triton.language as tl
from triton.language import core
from triton.language.core import _unwrap_if_constexpr, builtin
from triton.runtime.jit import constexpr_function

SUPPORTED_TRITON = ("3.6.",)
_ORIGINAL_REDUCE = core.reduce
_STATE = {"pin_all": os.environ.get("BITORDER_PIN_REDUCTIONS", "") not in ("", "0"), "base_cache": None,
          "warned_tuple": False}


def implementation_key() -> str:
    """A hash of this lowering. Triton's cache key covers a kernel's source and Triton's own
    files, not bitorder's builtins, so compiled kernels are kept in a cache directory named
    by it: a new lowering never reuses an old one's binaries."""
    import hashlib
    with open(__file__, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()[:16]


def pin_all_enabled() -> bool:
    """True while every reduction of the process is pinned (env var or `pin_all()`)."""
    return _STATE["pin_all"]


@constexpr_function
def _levels(n):
    n = int(n)
    if n < 1 or n & (n - 1):
        raise ValueError(f"pinned reduction over an axis of {n} elements: Triton tensors have power-of-two extents")
    return n.bit_length() - 1


@constexpr_function
def _halved(shape, axis):
    s = [int(d) for d in shape]
    s[axis:axis + 1] = [s[axis] // 2, 2]
    return s


@constexpr_function
def _without(shape, axis):
    return [int(d) for i, d in enumerate(shape) if i != axis]


@constexpr_function
def _numel(shape):
    n = 1
    for d in shape:
        n *= int(d)
    return n


@constexpr_function
def _ones(rank):
    return [1] * int(rank)


@constexpr_function
def _norm_axis(axis, rank):
    return int(axis) % int(rank)


@triton.jit
def pinned_fold(x, axis: tl.constexpr, combine_fn: tl.constexpr, keep_dims: tl.constexpr = False):
    """Fold `axis` of x (None: all of x, row-major) as a balanced tree in logical element order:
    log2(n) reshapes to [..., n/2, 2, ...] each followed by a size-2 reduction."""
    RANK: tl.constexpr = len(x.shape)
    if axis is None:
        y = tl.reshape(x, [_numel(x.shape)], can_reorder=False)
        AX: tl.constexpr = 0
    else:
        y = x
        AX: tl.constexpr = _norm_axis(axis, RANK)
    for _ in tl.static_range(_levels(y.shape[AX])):
        y = tl.reshape(y, _halved(y.shape, AX), can_reorder=False)
        y = tl.reduce(y, AX + 1, combine_fn)  # an axis of 2: one combine, whatever the layout
    # the folded axis has extent 1 now: keep it, or drop it with a reshape (which moves nothing)
    if keep_dims:
        if axis is None:
            y = tl.reshape(y, _ones(RANK), can_reorder=False)
    else:
        y = tl.reshape(y, _without(y.shape, AX), can_reorder=False)
    return y


@builtin
def reduce(input, axis, combine_fn, keep_dims=False, pinned=False, _semantic=None, _generator=None):
    """tl.reduce with `pinned`: True folds the axis as a balanced tree in logical element order
    (neighbours first), bit-identical for every layout; False is Triton's own free-order
    reduction (unless every reduction is pinned: bitorder.pin_all / BITORDER_PIN_REDUCTIONS).
    Pinned reductions take one tensor (not a tuple of tensors)."""
    explicit = _unwrap_if_constexpr(pinned)
    combine_fn = _unwrap_if_constexpr(combine_fn)
    axis = _unwrap_if_constexpr(axis)
    keep_dims = _unwrap_if_constexpr(keep_dims)
    if isinstance(input, core.tensor):
        extent = input.numel.value if axis is None else input.shape[core._wrap_axis(axis, len(input.shape))]
        extent = _unwrap_if_constexpr(extent)
    else:
        if explicit:
            raise ValueError("pinned reductions take one tensor, not a tuple")
        if _STATE["pin_all"] and not _STATE["warned_tuple"]:
            import warnings
            _STATE["warned_tuple"] = True
            warnings.warn("bitorder.pin_all: a reduction over a tuple of tensors (Welford, argmax) stays "
                          "free-order; its bits may depend on the layout", stacklevel=2)
        extent = 0
    # an axis of 2 or fewer elements is already pinned: one combine, in any layout
    if not (explicit or _STATE["pin_all"]) or not isinstance(input, core.tensor) or extent <= 2:
        return _ORIGINAL_REDUCE(input, axis, combine_fn, keep_dims=keep_dims, _semantic=_semantic,
                                _generator=_generator)
    if getattr(combine_fn, "fn", None) is getattr(triton.language.standard._sum_combine, "fn", False):
        combine_fn = _sum_combine_rn   # Triton's own sums (TorchInductor's) pinned with unfusable adds
    return _generator.call_JitFunction(pinned_fold, [input, core.constexpr(axis), combine_fn,
                                                     core.constexpr(keep_dims)], kwargs={})


_ASM = {  # (backend, dtype name) -> (assembly, constraints): an add with explicit rounding
    ("cuda", "fp32"): ("add.rn.f32 $0, $1, $2;", "=r,r,r"),
    ("cuda", "fp64"): ("add.rn.f64 $0, $1, $2;", "=l,l,l"),
    ("cuda", "fp16"): ("add.rn.f16 $0, $1, $2;", "=h,h,h"),
    ("cuda", "bf16"): ("add.rn.bf16 $0, $1, $2;", "=h,h,h"),
    ("hip", "fp32"): ("v_add_f32 $0, $1, $2", "=v,v,v"),
    ("hip", "fp16"): ("v_add_f16 $0, $1, $2", "=v,v,v"),
}


@builtin
def add_rn(a, b, _semantic=None):
    """a + b rounded once to nearest, never fused with a multiply (integers: a plain add)."""
    backend = getattr(getattr(_semantic.builder, "options", None), "backend_name", None)
    key = (backend, str(a.dtype))
    if key not in _ASM or not a.dtype.is_floating():
        return core.add(a, b, _semantic=_semantic)
    asm, constraints = _ASM[key]
    return core.inline_asm_elementwise(asm, constraints, [a, b], a.dtype, is_pure=True, pack=1, _semantic=_semantic)


@triton.jit
def _sum_combine_rn(a, b):
    # reached through tl.core so that Triton's interpreter can patch it like its own builtins
    return core.bitorder_add_rn(a, b)


@triton.jit
def sum(input, axis=None, keep_dims=False, dtype: core.constexpr = None, pinned: core.constexpr = False):
    """tl.sum with `pinned`: True sums as a balanced tree in logical element order with
    unfusable adds (same bits for every layout, num_warps, block size and fp-fusion
    setting, and equal to bitorder.emulate.pinned_sum); False is Triton's own tl.sum."""
    out_dtype: core.constexpr = triton.language.standard._pick_sum_dtype(input.dtype, dtype)
    if out_dtype is not None:
        input = input.to(out_dtype)
    if pinned:
        return pinned_fold(input, axis, _sum_combine_rn, keep_dims)
    else:
        return core.reduce(input, axis, triton.language.standard._sum_combine, keep_dims=keep_dims)


def install():
    """Give tl.sum, tensor.sum, tl.reduce and tensor.reduce their `pinned` parameter."""
    if not triton.__version__.startswith(SUPPORTED_TRITON):
        raise ImportError(f"bitorder's pinned reductions support Triton {SUPPORTED_TRITON}; found {triton.__version__}")
    for mod in (tl, core):
        mod.reduce = reduce
    core.bitorder_add_rn = add_rn
    tl.sum = sum
    triton.language.standard.sum = sum
    core._tensor_member_fn(reduce)  # x.reduce(...) and x.sum(...), the way Triton registers members
    core._tensor_member_fn(sum)
    apply_cache_dir()


def apply_cache_dir() -> None:
    """Point Triton's cache at the directory for this process's whole compile state: this lowering
    (implementation_key), pin_all's mode and the stage hook installed (its bitorder_identity, as
    bitorder.compiler.layouts sets it). Triton's key sees none of the three, so each state needs a
    directory of its own; this is the one place that names it, so that switching one never points a
    hooked compile at an unhooked directory (2026-12-02e: pin_all's exit did, with the layout pass on,
    and Triton then served layout-pass kernels to unhooked compiles)."""
    if _STATE["base_cache"] is None:
        _STATE["base_cache"] = triton.knobs.cache.dir
    d = os.path.join(_STATE["base_cache"], f"bitorder-{implementation_key()}")
    if _STATE["pin_all"]:
        d = os.path.join(d, "pinned-all")
    hook = triton.knobs.runtime.add_stages_inspection_hook
    if hook is not None:
        ident = getattr(hook, "bitorder_identity", None) or \
            f"{getattr(hook, '__module__', '?')}.{getattr(hook, '__qualname__', type(hook).__name__)}"
        d += "-" + ident.replace(":", "-").replace(os.sep, "-")
    triton.knobs.cache.dir = d


@contextlib.contextmanager
def pin_all(enabled: bool = True):
    """Pin every reduction compiled inside the block (TorchInductor's kernels included, when
    they compile in this process). Kernels compiled in one mode never serve the other: the
    mode has a Triton cache directory of its own and in-memory kernel caches are dropped
    when the mode changes."""
    old = _STATE["pin_all"]
    _set_mode(enabled)
    try:
        yield
    finally:
        _set_mode(old)


def _set_mode(enabled: bool) -> None:
    if _STATE["pin_all"] == bool(enabled):
        return
    _STATE["pin_all"] = bool(enabled)
    apply_cache_dir()
    drop_kernel_caches()


def drop_kernel_caches() -> None:
    """Forget every JIT function's compiled kernels in memory (their key sees no bitorder state)."""
    import gc
    import warnings

    from triton.runtime.jit import JITFunction
    with warnings.catch_warnings():  # isinstance() on some modules' lazy objects warns
        warnings.simplefilter("ignore")
        for obj in gc.get_objects():
            if isinstance(obj, JITFunction):
                caches = getattr(obj, "device_caches", None)
                if caches is not None:
                    caches.clear()
