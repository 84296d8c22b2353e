"""The checker's corpus: Triton kernels, each with an autotune space and inputs.

A Spec names a @triton.jit kernel, how to make its arguments (on the GPU or, for
compiling without one, on the CPU), which arguments are outputs, its launch grid and its
configuration space (>= 30 configurations where the kernel allows). The pinned suite's
twelve kernels join through `pinned`, TorchInductor's captured kernels through `inductor`, and
`variants` adds each hand-written reduction, normalization, scan and elementwise kernel over its
other input dtypes, and 16 warps to every space that stops at 8.
`SPECS` is the whole corpus.

    from corpus import SPECS
    spec = SPECS["row_max"]; args = spec.make("cuda", seed=3); spec.fn[spec.grid(meta)](**args, **config.kwargs)
"""
from __future__ import annotations

import itertools
import os
import sys
from dataclasses import dataclass, field
from typing import Callable

import torch
import triton

sys.path.insert(0, os.path.dirname(os.path.dirname(__file__)))


@dataclass
class Spec:
    name: str
    fn: object                       # the @triton.jit function
    make: Callable                   # (device, seed) -> {argument name: tensor or int}
    outputs: tuple                   # names of the output tensors
    grid: Callable                   # {**args, **config.kwargs} -> launch grid
    space: list                      # triton.Config list
    fixed: dict = field(default_factory=dict)   # constexprs every configuration shares
    family: str = "reduction"        # reduction | normalization | gemm | attention | elementwise | scan
    inout: tuple = ()                # outputs the kernel also reads: restored to their draw before a run, not zeroed


def wide(shape, seed, device="cuda", dtype=torch.float32):
    """Values over a wide dynamic range (2^-8 .. 2^8 times a normal draw): sums show their order."""
    g = torch.Generator(device=device).manual_seed(seed)
    x = torch.randn(shape, device=device, generator=g)
    x = x * torch.exp2(torch.randint(-8, 9, shape, device=device, generator=g).float())
    return x.to(dtype)


def space(blocks: dict, warps=(1, 2, 4, 8), stages=(1, 2, 3, 4)) -> list:
    """num_warps x num_stages x every combination of the block parameters."""
    names = list(blocks)
    return [triton.Config(dict(zip(names, vals)), num_warps=w, num_stages=s)
            for vals in itertools.product(*blocks.values()) for w in warps for s in stages]


# The row kernels' widths (name suffix, columns, BR values): the corpus's 512 and three more, other trees (how many
# elements a thread folds, how many lanes and warps a row spans); reductions.py and norms.py both take them.
ROW_WIDTHS = (("", 512, (1, 2, 4, 8)), ("_c128", 128, (1, 2, 4, 8, 16)), ("_c1024", 1024, (1, 2, 4, 8, 16)),
              ("_c2048", 2048, (1, 2, 4)))


def widths(make_spec) -> list:
    """make_spec(name suffix, columns, BR values) at every ROW_WIDTHS entry."""
    return [make_spec(w, c, b) for w, c, b in ROW_WIDTHS]


def _collect():
    from . import gemms, inductor, misc, norms, pinned, reductions, variants
    written = [s for mod in (pinned, reductions, norms, gemms, misc) for s in mod.SPECS]
    specs = {}
    for s in [*written, *variants.variants(written), *inductor.SPECS]:
        if s.name in specs:
            raise ValueError(f"two corpus kernels named {s.name}")
        specs[s.name] = variants.with_16_warps(s) if s.family in variants.RETYPED_FAMILIES else s
    return specs


SPECS = _collect()
