"""Autotuner pruning: keep only the configurations in the reference's bitwise class.

    @triton.autotune(configs, key=[...], prune_configs_by={"early_config_prune": bitorder.check.prune()})
    @triton.jit
    def kernel(...): ...

Each configuration is compiled without a launch (bitorder.compile, so a machine without a
GPU can prune), specialised exactly as Triton's JIT would specialise these arguments, and
classed by bitorder.check.signature. The reference is the first configuration unless
another index or a triton.Config is given.
"""
from __future__ import annotations

import inspect

from .signature import signature


def _autotuner_fn():
    """The JITFunction behind the Autotuner that is calling us (Triton 3.6 passes none)."""
    frame = inspect.currentframe()
    while frame is not None:
        me = frame.f_locals.get("self")
        if me is not None and type(me).__name__ == "Autotuner" and hasattr(me, "fn"):
            fn = me.fn
            while not hasattr(fn, "arg_names") and hasattr(fn, "fn"):
                fn = fn.fn
            return fn
        frame = frame.f_back
    raise RuntimeError("bitorder.check.prune() must be called by triton.autotune, or be given kernel=")


def _target():
    try:
        import torch
        if torch.cuda.is_available():
            cc = torch.cuda.get_device_capability()
            return f"sm{cc[0]}{cc[1]}"
    except Exception:
        pass
    return "sm90"


def compile_config(fn, config, named_args: dict, kwargs: dict, target: str):
    """Compile `fn` under one triton.Config with Triton's own argument specialisation."""
    from triton._C.libtriton import native_specialize_impl
    from triton.backends import backends

    from ..compiler import compile as compile_kernel, parse_target

    backend = backends["nvidia" if parse_target(target).backend == "cuda" else "amd"].compiler
    values = {**named_args, **kwargs, **config.kwargs}
    signature_types, constexprs, aligned = {}, {}, []
    for p in fn.params:
        if p.name in values:
            v = values[p.name]
        elif p.has_default:
            v = p.default
        else:
            raise ValueError(f"no value for {fn.__name__}'s argument {p.name}")
        if p.is_constexpr:
            constexprs[p.name] = v
            continue
        ty, spec = native_specialize_impl(backend, v, p.is_const, not p.do_not_specialize,
                                          not p.do_not_specialize_on_alignment)
        if ty == "constexpr":
            constexprs[p.name] = spec
        else:
            signature_types[p.name] = ty
            if spec == "D":
                aligned.append(p.name)
    opts = {k: getattr(config, k) for k in ("num_warps", "num_stages") if getattr(config, k, None) is not None}
    return compile_kernel(fn, target, signature=signature_types, constexprs=constexprs, aligned=aligned, **opts)


def prune(reference=0, target: str | None = None, kernel=None):
    """An early_config_prune that keeps the configurations bitwise-equivalent to `reference`
    (an index into the configs, or a triton.Config compiled and handed in)."""
    def early_config_prune(configs, named_args, **kwargs):
        fn = kernel or _autotuner_fn()
        tgt = target or _target()
        sigs = [signature(compile_config(fn, c, named_args, kwargs, tgt)) for c in configs]
        if isinstance(reference, int):
            ref = sigs[reference]
        else:
            ref = signature(compile_config(fn, reference, named_args, kwargs, tgt))
        kept = [c for c, s in zip(configs, sigs) if s == ref]
        early_config_prune.last = {"configs": len(configs), "kept": len(kept), "classes": len(set(sigs))}
        return kept
    early_config_prune.last = None
    return early_config_prune
