"""The pinned suite's twelve kernels as corpus entries: PINNED is one more tuning knob."""
from __future__ import annotations

import torch

import pinned_kernels as ps

from . import Spec, space, wide

R, C = ps.R, ps.C
_INPUTS = {  # the suite's input shapes (its lambdas draw on the GPU only)
    "row_sum": [(R, C)], "col_sum": [(256, 8192)], "mid_sum": [(512, 128, 16)], "dot_rows": [(R, C), (C,)],
    "softmax": [(R, C)], "log_softmax": [(R, C)], "layernorm": [(R, C)], "rmsnorm": [(R, C)],
    "ln_bwd_dw": [(256, 4096), (256, 4096)], "cross_entropy": [(R, C), "targets"],
    "gemm_colsum": [(128, 64), (64, 1024)], "loop_sum": [(R, 8192)]}


def _spec(name):
    kernel, _, out_shape, grid, block_name, blocks, _, shapes = ps.CASES[name]
    pointers = [a for a in kernel.arg_names if a.endswith("_ptr")]

    def make(device, seed):
        args = {}
        for i, (p, shape) in enumerate(zip(pointers, _INPUTS[name])):
            if shape == "targets":
                g = torch.Generator(device=device).manual_seed(seed + i)
                args[p] = torch.randint(0, C, (R,), device=device, dtype=torch.int32, generator=g)
            else:
                args[p] = wide(shape, seed + i, device)
        args[pointers[-1]] = torch.empty(out_shape, device=device)
        return {**args, **shapes}

    return Spec(f"pinned_{name}", kernel, make, (pointers[-1],), lambda m: grid(m[block_name]),
                space({block_name: blocks, "PINNED": (True, False)}), family="reduction")


SPECS = [_spec(n) for n in ps.CASES]
