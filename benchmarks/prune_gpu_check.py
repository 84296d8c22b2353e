"""check.prune inside a real autotuner on a GPU (issue 5): the configurations it keeps return identical bytes, those
it drops return other bytes, and jobs=4 compiles them in spawned workers from a process that holds CUDA.

    PYTHONPATH=src python benchmarks/prune_gpu_check.py OUT.json      (a CUDA GPU)
    PYTHONPATH=src python benchmarks/prune_gpu_check.py --grid OUT.json   (a CUDA GPU: prune(grid=...) keeping
        configurations of other ROWS a program, launched over their own grids)
    PYTHONPATH=src python benchmarks/prune_gpu_check.py --time KERNEL JOBS [STORE]   (any machine: one corpus
        kernel's whole space pruned with jobs processes, the caches the caller gives; prints the seconds and the
        kept count; STORE 0: prune(store=False), every program walked even where an earlier run stored it)

The kernel is a free-order row sum autotuned over num_warps x num_stages: the checker's class of the first
configuration (num_warps 4) holds its num_stages twins. After the autotuner has pruned and run, every configuration
is launched directly (the JIT, no autotuner) on wide-range rows and its output compared bytewise (int32 views) with
the first configuration's."""
from __future__ import annotations

import json
import sys

import torch
import triton
import triton.language as tl

from bitorder.check import prune
from bitorder.compiler.demo import rows_sum as _rows_sum   # (ROWS rows a program: grids differ by configuration)

CONFIGS = [triton.Config({}, num_warps=w, num_stages=s) for w in (4, 1, 2, 8) for s in (1, 2, 3)]
PRUNE = prune(jobs=4, verbose=True)
KEPT = []


def _recording_prune(configs, named_args, **kwargs):
    kept = PRUNE(configs, named_args, **kwargs)
    KEPT[:] = [(c.num_warps, c.num_stages) for c in kept]
    return kept


@triton.jit
def _row_sum(x_ptr, y_ptr, n_cols, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + tl.program_id(0) * n_cols + offs, mask=offs < n_cols, other=0.0)
    tl.store(y_ptr + tl.program_id(0), tl.sum(x, axis=0))


row_sum = triton.autotune(CONFIGS, key=["n_cols"], prune_configs_by={"early_config_prune": _recording_prune})(_row_sum)


def main(out):
    torch.manual_seed(0)
    rows, n = 512, 1000
    x = torch.randn(rows, n, device="cuda") * torch.exp(torch.randn(rows, n, device="cuda") * 6)   # wide range
    y = torch.empty(rows, device="cuda")
    row_sum[(rows,)](x, y, n, BLOCK=1024)          # the autotuner calls the prune with CUDA live
    got = {}
    for c in CONFIGS:
        yc = torch.empty(rows, device="cuda")
        _row_sum[(rows,)](x, yc, n, BLOCK=1024, num_warps=c.num_warps, num_stages=c.num_stages)
        got[(c.num_warps, c.num_stages)] = yc.view(torch.int32).cpu()
    summary = _compare(out, PRUNE.last, KEPT, got, got[(4, 1)], y)
    ok = PRUNE.last["jobs"] == 4 and len(summary["kept"]) == 3 and not summary["kept_that_differ"]
    return 0 if ok else 1


def _compare(out, last, kept, got, first, y) -> dict:
    """The summary written to `out`: each configuration's bytes ({key: int32 view}) against the first's, the kept
    keys among them, and the autotuner's own output y."""
    same = {",".join(map(str, k)): bool(torch.equal(v, first)) for k, v in got.items()}
    kept = [",".join(map(str, k)) for k in kept]
    summary = {"device": torch.cuda.get_device_name(), "prune": last, "kept": kept,
               "same_bytes_as_first": same, "kept_that_differ": [k for k in kept if not same[k]],
               "dropped_that_agree": [k for k in same if k not in kept and same[k]],
               "autotuner_output_equals_first": bool(torch.equal(y.view(torch.int32).cpu(), first))}
    with open(out, "w") as f:
        json.dump(summary, f, indent=1)
    print(json.dumps(summary))
    return summary


GRID_CONFIGS = [triton.Config({"ROWS": r}, num_warps=w) for r in (1, 2, 4) for w in (1, 2, 4)]
KEPT_GRID = []


def _rows_grid(meta):
    return (triton.cdiv(meta["n_rows"], meta["ROWS"]),)


PRUNE_GRID = prune(grid=_rows_grid, verbose=True, store=False)


def _recording_grid_prune(configs, named_args, **kwargs):
    kept = PRUNE_GRID(configs, named_args, **kwargs)
    KEPT_GRID[:] = [(c.kwargs["ROWS"], c.num_warps) for c in kept]
    return kept


rows_sum = triton.autotune(GRID_CONFIGS, key=["n_rows"],
                           prune_configs_by={"early_config_prune": _recording_grid_prune})(_rows_sum)


def main_grid(out):
    """prune(grid=...) in a real autotuner: rows of 128 summed, ROWS rows a program over cdiv(n_rows, ROWS)
    programs; each configuration then launched over its own grid and compared bytewise with the first."""
    torch.manual_seed(1)
    n_rows, cols = 512, 128
    x = torch.randn(n_rows, cols, device="cuda") * torch.exp(torch.randn(n_rows, cols, device="cuda") * 6)
    y = torch.empty(n_rows, device="cuda")
    rows_sum[_rows_grid](x, y, n_rows, COLS=cols)
    got = {}
    for c in GRID_CONFIGS:
        yc = torch.empty(n_rows, device="cuda")
        _rows_sum[_rows_grid](x, yc, n_rows, COLS=cols, num_warps=c.num_warps, **c.kwargs)
        got[(c.kwargs["ROWS"], c.num_warps)] = yc.view(torch.int32).cpu()
    summary = _compare(out, PRUNE_GRID.last, KEPT_GRID, got, got[(1, 1)], y)
    kept = summary["kept"]   # more than one kept, of more than one ROWS (so more than one grid), none differing
    ok = len(kept) > 1 and len({k.split(",")[0] for k in kept}) > 1 and not summary["kept_that_differ"]
    return 0 if ok else 1


def time_space(kernel, jobs, store=True):
    """Prune one corpus kernel's whole space on this machine's CPU (the caches the caller sets)."""
    import time
    sys.path.insert(0, __file__.rsplit("/", 1)[0])
    from corpus import SPECS
    spec = SPECS[kernel]
    early = prune(kernel=spec.fn, jobs=jobs, target="sm90", store=store)
    started = time.perf_counter()
    kept = early(spec.space, {**spec.make("cpu", 7), **spec.fixed})
    print(json.dumps({"kernel": kernel, "configs": len(spec.space), "kept": len(kept), "jobs": early.last["jobs"],
                      "store": store, "seconds": round(time.perf_counter() - started, 1)}))


if __name__ == "__main__":
    import prune_gpu_check   # the kernel under its module name, as the spawned workers import it (not __main__)
    if sys.argv[1] == "--grid":
        sys.exit(prune_gpu_check.main_grid(sys.argv[2]))
    if sys.argv[1] == "--time":
        sys.exit(prune_gpu_check.time_space(sys.argv[2], int(sys.argv[3]), sys.argv[4:5] != ["0"]))
    sys.exit(prune_gpu_check.main(sys.argv[1]))
