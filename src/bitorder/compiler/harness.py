"""Compile a @triton.jit function for a named GPU without the GPU.

Triton compiles for any backend it ships once it is handed a GPUTarget, so TTGIR,
LLVM IR and PTX (sm_*) or AMDGCN (gfx*) come out on a CPU machine. The checker and
the lowering tests read these texts; results are cached on disk under a key made
of everything that changes them, including the stage hook Triton leaves out of
its own cache key.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Mapping, Optional

import triton
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource

from .. import __version__

_SM = re.compile(r"^sm_?(\d+)a?$")
_GFX = re.compile(r"^gfx[0-9a-f]+$")
# Options that are ints / bools users may pass; anything else triton accepts goes through `options`.
_DEFAULT_OPTIONS = {"num_warps": 4, "num_stages": 3}


class CompileError(RuntimeError):
    """A kernel failed to compile for a target; the message carries Triton's own error."""


def parse_target(name: str) -> GPUTarget:
    """`sm90`, `sm_90a`, `sm80`, `gfx942`, `gfx90a`, `gfx1100` ... -> GPUTarget."""
    if isinstance(name, GPUTarget):
        return name
    m = _SM.match(name)
    if m:
        return GPUTarget("cuda", int(m.group(1)), 32)
    if _GFX.match(name):
        # CDNA (gfx9xx) runs wave64; RDNA (gfx10xx, gfx11xx, gfx12xx) wave32.
        return GPUTarget("hip", name, 64 if name.startswith("gfx9") else 32)
    raise ValueError(f"unknown target {name!r}: use sm<NN> (e.g. sm90) or gfx<arch> (e.g. gfx942)")


def target_name(target: GPUTarget) -> str:
    return f"sm{target.arch}" if target.backend == "cuda" else str(target.arch)


@dataclass(frozen=True)
class Compiled:
    """The texts one compilation produced. `asm` is PTX (cuda) or AMDGCN (hip)."""

    target: str
    name: str
    ttir: str
    ttgir: str
    llir: str
    asm: str
    asm_kind: str
    metadata: dict = field(default_factory=dict, compare=False)

    @property
    def ptx(self) -> str:
        if self.asm_kind != "ptx":
            raise AttributeError(f"{self.target} has no PTX; its assembly is {self.asm_kind}")
        return self.asm

    @property
    def amdgcn(self) -> str:
        if self.asm_kind != "amdgcn":
            raise AttributeError(f"{self.target} has no AMDGCN; its assembly is {self.asm_kind}")
        return self.asm


def cache_root() -> Path:
    """$BITORDER_CACHE_DIR, else ~/.cache/bitorder: what bitorder keeps between processes (compile/, signatures/)."""
    return Path(os.environ.get("BITORDER_CACHE_DIR") or os.path.join(os.path.expanduser("~"), ".cache", "bitorder"))


def cache_dir() -> Path:
    """cache_root()/compile: where compiled texts live."""
    return cache_root() / "compile"


def _hook_identity() -> str:
    # The stage hook rewrites TTGIR but is not in Triton's cache key: it must be in ours.
    hook = triton.knobs.runtime.add_stages_inspection_hook
    if hook is None:
        return "none"
    ident = getattr(hook, "bitorder_identity", None)
    return ident or f"{getattr(hook, '__module__', '?')}.{getattr(hook, '__qualname__', repr(hook))}"


def _language_identity() -> str:
    # bitorder's own builtins (pinned reductions) change the IR but are not in fn.cache_key.
    from ..language import pinned
    return f"{pinned.implementation_key()}:{int(pinned.pin_all_enabled())}"


def _cache_key(fn, target, signature, constexprs, aligned, options) -> str:
    from triton._C.libtriton import get_cache_invalidating_env_vars

    key = {
        "bitorder": __version__,
        "triton": triton.__version__,
        "fn": fn.cache_key,  # source and every jit function it calls
        "name": fn.__name__,
        "target": [target.backend, str(target.arch), target.warp_size],
        "signature": sorted(signature.items()),
        "constexprs": sorted((k, repr(v)) for k, v in constexprs.items()),
        "aligned": sorted(aligned),
        "options": sorted((k, repr(v)) for k, v in options.items()),
        "env": sorted(get_cache_invalidating_env_vars().items()),
        "hook": _hook_identity(),
        "language": _language_identity(),
    }
    return hashlib.sha256(json.dumps(key, sort_keys=True).encode()).hexdigest()


def wrappers(obj):
    """obj, then what each wrapper wraps in turn (@triton.autotune and @triton.heuristics keep it as .fn; a
    JITFunction keeps its Python function so), at most 8 deep."""
    for _ in range(9):
        yield obj
        obj = getattr(obj, "fn", None)
        if obj is None:
            return


def jit_function(obj):
    """The @triton.jit function obj is or wraps, or None."""
    from triton.runtime.jit import JITFunction
    return next((f for f in wrappers(obj) if isinstance(f, JITFunction)), None)


def compile(fn, target: str = "sm90", *, signature: Mapping[str, str], constexprs: Optional[Mapping] = None,
            aligned: Iterable[str] = (), num_warps: int = 4, num_stages: int = 3, cache: bool = True,
            **options) -> Compiled:
    """Compile `fn` (a @triton.jit function) for `target` with no GPU present.

    signature: a Triton type per runtime argument ("*fp16", "i32", "fp32", ...).
    constexprs: values for the tl.constexpr arguments.
    aligned: argument names Triton may assume divisible by 16 (pointer alignment
      or integer divisibility), as its JIT would specialise them on a GPU.
    num_warps, num_stages and further Triton options (enable_fp_fusion, ...) are
    passed through. Returns the TTIR, TTGIR, LLVM IR and PTX/AMDGCN texts.
    """
    from triton.runtime.jit import JITFunction

    if not isinstance(fn, JITFunction):
        raise TypeError(f"bitorder.compile takes a @triton.jit function, got {type(fn).__name__}")
    tgt = parse_target(target)
    constexprs = dict(constexprs or {})
    aligned = tuple(aligned)
    args = fn.arg_names
    for p in fn.params:  # a constexpr with a default takes it, as the JIT does
        default = p._param.default
        if p.is_constexpr and p.name not in constexprs and p.name not in signature and default is not p._param.empty:
            constexprs[p.name] = default
    unknown = (set(signature) | set(constexprs) | set(aligned)) - set(args)
    if unknown:
        raise ValueError(f"{fn.__name__} has no argument(s) {sorted(unknown)}; its arguments are {args}")
    missing = [a for a in args if a not in signature and a not in constexprs]
    if missing:
        raise ValueError(f"{fn.__name__}: give a signature type or a constexpr value for {missing}")
    opts = dict(_DEFAULT_OPTIONS, num_warps=num_warps, num_stages=num_stages, **options)

    key = _cache_key(fn, tgt, dict(signature), constexprs, aligned, opts)
    path = cache_dir() / key[:2] / f"{key}.json"
    if cache and path.exists():
        try:
            return Compiled(**json.loads(path.read_text()))
        except (OSError, ValueError, TypeError):
            pass  # a torn or stale entry: recompile and overwrite it

    full_sig = {a: ("constexpr" if a in constexprs else signature[a]) for a in args}
    attrs = {(args.index(a),): [["tt.divisibility", 16]] for a in aligned}
    src = ASTSource(fn, full_sig, constexprs=constexprs, attrs=attrs)
    try:
        kernel = triton.compile(src, target=tgt, options=opts)
    except Exception as e:  # triton raises CompilationError, RuntimeError, AssertionError ...
        raise CompileError(f"{fn.__name__} for {target_name(tgt)}: {type(e).__name__}: {e}") from e
    asm_kind = "ptx" if tgt.backend == "cuda" else "amdgcn"
    md = kernel.metadata._asdict()
    meta = {k: md[k] for k in ("num_warps", "num_stages", "shared", "name") if k in md}
    out = Compiled(target=target_name(tgt), name=md.get("name", fn.__name__), ttir=kernel.asm["ttir"],
                   ttgir=kernel.asm["ttgir"], llir=kernel.asm["llir"], asm=kernel.asm[asm_kind],
                   asm_kind=asm_kind, metadata=meta)
    if cache:
        _store(path, out)
    return out


def _store(path: Path, out: Compiled) -> None:
    # Atomic: parallel test workers share the cache.
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    with os.fdopen(fd, "w") as f:
        json.dump(out.__dict__, f)
    os.replace(tmp, path)
