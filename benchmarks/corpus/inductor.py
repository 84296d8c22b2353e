"""TorchInductor's kernels for real model pieces, captured on the H200, as corpus entries.

`benchmarks/capture_inductor.py` ran torch.compile on the GPU and copied TorchInductor's output
code into `inductor_capture/inductor/<model>-t<tokens>/` (README.md there says when and how).
Each folder holds one file per generated kernel (the @triton.jit function under Inductor's
heuristics decorator, with its triton_meta) and the wrapper modules whose `call` allocates every
buffer and launches the kernels (`kernel.run(buffers..., xnumel, r0_numel, stream=...)`).

Read back here, without importing any of those modules (they need CUDA and the torch that wrote
them): the @triton.jit function is compiled alone from its own file, against the installed
torch's triton_helpers / libdevice, so the same source loads under torch 2.11 on the GPU machine
and torch 2.13 on a CPU one. Pointer dtypes come from triton_meta's signature, buffer sizes from
the wrapper's `assert_size_stride` / `empty_strided_cuda` / `reinterpret_tensor` lines, the
numel arguments and the launch grid (Inductor's Grid1D: cdiv(xnumel, XBLOCK)) from the launch.
Kernels are deduplicated by source; the same kernel name at another token count is another
source (Inductor bakes xnumel and the block shapes in).
"""
from __future__ import annotations

import ast
import functools
import json
import os
import re
from dataclasses import dataclass

import torch
import triton
import triton.language as tl

from . import Spec, space, wide

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "inductor_capture")
_DTYPES = {"fp32": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16, "fp64": torch.float64,
           "i64": torch.int64, "i32": torch.int32, "i8": torch.int8, "u8": torch.uint8, "i1": torch.bool}


@dataclass(frozen=True)
class Captured:
    """One distinct generated kernel and the launch that ran it on the H200."""
    model: str
    tokens: int
    name: str            # Inductor's kernel name (triton_<kind>_fused_..._<n>)
    path: str            # its own source file
    source: str          # the @triton.jit function's text
    pointers: tuple      # ((parameter, dtype, elements), ...) in launch order
    ints: dict           # {"xnumel": n, "r0_numel": n}: the launch's numel arguments
    inout_read: tuple    # in_out pointers the kernel loads before it stores them

    @property
    def kind(self) -> str:
        """poi (pointwise), per (persistent reduction: one block holds the row) or red (looped)."""
        return self.name.split("_")[1]


def _helpers() -> dict:
    """The globals an Inductor kernel body names, from the torch installed here."""
    from torch._inductor.runtime import triton_helpers
    from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
    return {"triton": triton, "tl": tl, "triton_helpers": triton_helpers, "libdevice": libdevice,
            "tl_math": tl_math}


def load_kernel(path: str, name: str):
    """The JITFunction `name` defined in Inductor's kernel file `path`, without its heuristics
    decorator (Inductor's autotuner wrapper, which wants a CUDA device and the writing torch).

    The function is compiled from the file itself (same filename and line numbers), so Triton's
    inspect.getsource reads the real text."""
    tree = ast.parse(open(path).read(), path)
    fns = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == name]
    if len(fns) != 1:
        raise ValueError(f"{path}: {len(fns)} definitions of {name}")
    fn = fns[0]
    fn.decorator_list = [d for d in fn.decorator_list if ast.unparse(d) == "triton.jit"]
    if not fn.decorator_list:
        raise ValueError(f"{path}: {name} is not @triton.jit")
    namespace = {"__name__": f"corpus.inductor.{name}", "__file__": path, **_helpers()}
    exec(compile(ast.Module(body=[fn], type_ignores=[]), path, "exec"), namespace)
    return namespace[name]


def _signature(tree: ast.Module, name: str) -> dict:
    """triton_meta['signature'] from the heuristics decorator on `name` (literals only: the
    decorator's other entries construct DeviceProperties)."""
    fn = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == name)
    for dec in fn.decorator_list:
        for kw in getattr(dec, "keywords", ()):
            if kw.arg == "triton_meta":
                meta = kw.value
                key = next(i for i, k in enumerate(meta.keys) if ast.literal_eval(k) == "signature")
                return ast.literal_eval(meta.values[key])
    raise ValueError(f"{name}: no triton_meta signature")


def _extent(shape: tuple, stride: tuple, offset: int = 0) -> int:
    """Elements of storage a strided view reaches (a 0-d tensor: one)."""
    return offset + 1 + sum((n - 1) * s for n, s in zip(shape, stride))


def _sizes(wrapper: str) -> dict:
    """{buffer name: storage elements} from a wrapper's `call`."""
    tup = r"(\((?:[^()]*)\))"
    sizes = {}
    for m in re.finditer(rf"assert_size_stride\((\w+), {tup}, {tup}\)", wrapper):
        sizes[m[1]] = _extent(ast.literal_eval(m[2]), ast.literal_eval(m[3]))
    for m in re.finditer(rf"(\w+) = empty_strided_\w+\({tup}, {tup}, torch\.\w+\)", wrapper):
        sizes[m[1]] = _extent(ast.literal_eval(m[2]), ast.literal_eval(m[3]))
    for m in re.finditer(rf"(\w+) = reinterpret_tensor\((\w+), {tup}, {tup}, (\d+)\)", wrapper):
        sizes[m[1]] = _extent(ast.literal_eval(m[3]), ast.literal_eval(m[4]), int(m[5]))
    for m in re.finditer(r"(\w+) = (\w+); del \2\b", wrapper):   # Inductor's buffer reuse
        sizes[m[1]] = sizes[m[2]]
    return sizes


def _launch(folder: str, name: str):
    """(argument names and numbers, the wrapper's buffer sizes) of the one launch of `name`."""
    hits = []
    for f in sorted(os.listdir(folder)):
        text = open(os.path.join(folder, f)).read()
        hits += [(m[1], text) for m in re.finditer(rf"\b{name}\.run\(([^)]*)\)", text)]
    if len(hits) != 1:
        raise ValueError(f"{folder}: {len(hits)} launches of {name}")
    args = [a.strip() for a in hits[0][0].split(",") if "=" not in a]
    return args, _sizes(hits[0][1])


def _read(folder: str, path: str, name: str, model: str, tokens: int) -> Captured:
    text = open(path).read()
    tree = ast.parse(text, path)
    fn = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == name)
    source = ast.get_source_segment(text, fn)
    sig = _signature(tree, name)
    params = [a.arg for a in fn.args.args]
    ptrs = [p for p in params if sig[p].startswith("*")]
    numels = [p for p in params if p.endswith("numel")]
    args, sizes = _launch(folder, name)
    if len(args) != len(ptrs) + len(numels):
        raise ValueError(f"{name}: launch {args} against parameters {params}")
    pointers = tuple((p, _DTYPES[sig[p][1:]], sizes[a]) for p, a in zip(ptrs, args))
    ints = {p: int(a) for p, a in zip(numels, args[len(ptrs):])}
    inout = tuple(p for p in ptrs if p.startswith("in_out") and re.search(rf"tl\.load\({p}\b", source))
    return Captured(model, tokens, name, path, source, pointers, ints, inout)


@functools.lru_cache(maxsize=None)
def captured() -> tuple:
    """Every distinct kernel of the capture index, in index order (deduplicated by source)."""
    index = json.load(open(os.path.join(ROOT, "inductor_capture.json")))
    out, seen = [], set()
    for cap in index["captures"]:
        folder = os.path.join(ROOT, cap["folder"])
        for f in sorted(os.listdir(folder)):
            path = os.path.join(folder, f)
            tree = ast.parse(open(path).read(), path)
            # a kernel's own file defines it at top level; wrappers hold kernels inside strings
            for n in tree.body:
                if isinstance(n, ast.FunctionDef) and n.name in cap["kernels"]:
                    c = _read(folder, path, n.name, cap["model"], cap["tokens"])
                    if c.source not in seen:
                        seen.add(c.source)
                        out.append(c)
    return tuple(out)


def _short(c: Captured) -> str:
    """inductor_<model>_t<tokens>_<kind><n>[_bwd]: Inductor's names spell out every fused op."""
    n = c.name.rsplit("_", 1)[1]
    return f"inductor_{c.model}_t{c.tokens}_{c.kind}{n}" + ("_bwd" if "backward" in c.name else "")


def _pow2s(lo: int, hi: int) -> list:
    return [1 << i for i in range(lo.bit_length() - 1, hi.bit_length())]


def config_space(c: Captured) -> list:
    """The kernel's autotune space: its block constexprs x num_warps x num_stages, only blocks
    under which it writes the same outputs in bounds.

    poi: XBLOCK 256..2048 (dividing xnumel where Inductor dropped the x mask), 1-8 warps, 1-2
    stages. per: R0_BLOCK is fixed in the body (it covers the row); the four largest power-of-two
    XBLOCKs up to xnumel (rounded up) and 8192 / R0_BLOCK, 1-8 warps, 1-2 stages. Over xnumel 1
    (no x mask) XBLOCK 1 and 2, the latter computing the one row twice and storing the same value
    to the same address, with 4 stages to reach 30. red: XBLOCK 1-4 x R0_BLOCK 512-2048, at most
    4096 elements a block (registers), 2-8 warps, 1-2 stages (the loop pipelines)."""
    x = c.ints["xnumel"]
    unmasked = re.search(r"xmask = tl\.full\(", c.source) is not None
    if c.kind == "poi":
        blocks = [b for b in (256, 512, 1024, 2048) if not unmasked or x % b == 0]
        return space({"XBLOCK": blocks}, warps=(1, 2, 4, 8), stages=(1, 2))
    if c.kind == "per":
        r_block = int(re.search(r"R0_BLOCK: tl\.constexpr = (\d+)", c.source)[1])
        if x == 1:
            return space({"XBLOCK": (1, 2)}, warps=(1, 2, 4, 8), stages=(1, 2, 3, 4))
        hi = min(1 << (x - 1).bit_length(), max(1, 8192 // r_block))
        return space({"XBLOCK": _pow2s(1, hi)[-4:]}, warps=(1, 2, 4, 8), stages=(1, 2))
    if c.kind == "red":
        return [cfg for cfg in space({"XBLOCK": (1, 2, 4), "R0_BLOCK": (512, 1024, 2048)}, warps=(2, 4, 8),
                                     stages=(1, 2))
                if cfg.kwargs["XBLOCK"] * cfg.kwargs["R0_BLOCK"] <= 4096 and cfg.kwargs["XBLOCK"] <= x]
    raise ValueError(f"{c.name}: unknown kernel kind {c.kind}")


def _family(c: Captured) -> str:
    if c.kind == "poi":
        return "elementwise"
    return "normalization" if re.search(r"layer_norm|rsqrt", c.name) else "reduction"


def _int_bound(c: Captured) -> int:
    """Targets drawn in [0, bound): the kernel's own index assertion, else the row length."""
    m = re.search(r"< (\d+)\), \"index out of bounds", c.source)
    return int(m[1]) if m else c.ints.get("r0_numel", c.ints["xnumel"])


def to_spec(c: Captured) -> Spec:
    """A corpus Spec for one captured kernel: its real sizes and dtypes, wide-range inputs."""
    fn = load_kernel(c.path, c.name)
    outputs = tuple(p for p, _, _ in c.pointers if p.startswith(("out_", "in_out_")))

    def make(device, seed):
        args = {}
        for i, (p, dtype, n) in enumerate(c.pointers):
            if p in outputs and p not in c.inout_read:
                args[p] = torch.zeros(n, device=device, dtype=dtype)
            elif dtype.is_floating_point:
                args[p] = wide((n,), seed + i, device, dtype)
            else:
                g = torch.Generator(device=device).manual_seed(seed + i)
                args[p] = torch.randint(0, _int_bound(c), (n,), device=device, dtype=dtype, generator=g)
        return {**args, **c.ints}

    return Spec(_short(c), fn, make, outputs, lambda m: (triton.cdiv(m["xnumel"], m["XBLOCK"]),),
                config_space(c), family=_family(c), inout=c.inout_read)


SPECS = [to_spec(c) for c in captured()]
