"""The harness's own demonstration for `bitorder report`: a row sum compiled for
several targets without a GPU, and on a GPU, proof that the PTX the harness made
is the PTX Triton's JIT runs."""
from __future__ import annotations

import time

import triton
import triton.language as tl

from .harness import CompileError, compile, parse_target, target_name


@triton.jit
def row_sum(x_ptr, y_ptr, n_cols, BLOCK: tl.constexpr, PINNED: tl.constexpr = False):
    """y[row] = sum(x[row, :n_cols]): Triton's free-order tl.sum, or the pinned tree."""
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * n_cols + offs, mask=offs < n_cols, other=0.0)
    tl.store(y_ptr + row, tl.sum(x, axis=0, pinned=PINNED))


ROW_SUM_SIGNATURE = {"x_ptr": "*fp32", "y_ptr": "*fp32", "n_cols": "i32"}


@triton.jit
def rows_sum(x_ptr, y_ptr, n_rows, ROWS: tl.constexpr, COLS: tl.constexpr):
    """y[row] = sum(x[row, :COLS]) for ROWS rows a program, over cdiv(n_rows, ROWS) programs: its configurations
    differ in grid, and those with at most one warp a row sum every row in one order (check's super-blocks)."""
    rows = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    cols = tl.arange(0, COLS)
    x = tl.load(x_ptr + rows[:, None] * COLS + cols[None, :], mask=rows[:, None] < n_rows, other=0.0)
    tl.store(y_ptr + rows, tl.sum(x, axis=1), mask=rows < n_rows)


ROWS_SUM_SIGNATURE = {"x_ptr": "*fp32", "y_ptr": "*fp32", "n_rows": "i32"}


def compile_targets(names):
    """(target, assembly kind, True or the error, seconds) for each target name."""
    rows = []
    for name in names:
        t0 = time.perf_counter()
        kind = "ptx" if parse_target(name).backend == "cuda" else "amdgcn"
        try:
            compile(row_sum, name, signature=ROW_SUM_SIGNATURE, constexprs={"BLOCK": 1024})
            ok = True
        except CompileError as e:
            ok = str(e).splitlines()[0][:80]
        rows.append((name, kind, ok, time.perf_counter() - t0))
    return rows


def live_check():
    """On a CUDA GPU: the harness's PTX equals the JIT's, and free-order sums move with num_warps."""
    import torch

    cc = torch.cuda.get_device_capability()
    target = f"sm{cc[0]}{cc[1]}"
    rows, n = 64, 1000  # n not a multiple of 16, so the JIT specialises only the pointers
    x = torch.randn(rows, n, device="cuda", dtype=torch.float32)
    x[:, ::7] *= 1e4  # a wide dynamic range exposes the order
    outs = {}
    lines = []
    for warps in (1, 2, 4, 8):
        y = torch.empty(rows, device="cuda", dtype=torch.float32)
        k = row_sum[(rows,)](x, y, n, BLOCK=1024, num_warps=warps)
        outs[warps] = y.view(torch.int32).cpu()
        mine = compile(row_sum, target, signature=ROW_SUM_SIGNATURE, constexprs={"BLOCK": 1024},
                       aligned=("x_ptr", "y_ptr"), num_warps=warps)
        same = mine.ptx == k.asm["ptx"]
        lines.append(f"num_warps={warps}: harness PTX {'==' if same else '!='} JIT PTX on {target_name(parse_target(target))}"
                     + ("" if same else "  [red](MISMATCH)[/]"))
    distinct = len({bytes(v.numpy().tobytes()) for v in outs.values()})
    lines.append(f"free-order tl.sum over 1000 fp32: {distinct} distinct byte patterns across num_warps 1,2,4,8")
    return lines
