"""`bitorder check DIR` on the cache a real autotuned run left (issue 5): each class it prints for a kernel holds
variants that return identical bytes.

    TRITON_CACHE_DIR=$(mktemp -d) BITORDER_CACHE_DIR=$(mktemp -d) PYTHONPATH=src \
        python benchmarks/cache_gpu_check.py OUT.json        (a CUDA GPU)

Two kernels, each under @triton.autotune over num_warps {1, 2, 4, 8} x num_stages {1, 2, 3}: a free-order row sum
(tl.sum) and a pinned one (tl.sum(..., pinned=True), whose bits num_warps does not change). The autotuner runs each
once (it compiles and times every configuration into the fresh Triton cache); then every configuration is launched
by the JIT on wide-range rows and its output kept as int32 bytes. `bitorder check` is then run as a user runs it,
on the cache folder, and each class's members (named by num_warps and num_stages) are compared bytewise: a class
holding two variants whose bytes differ is a wrong merge, and the script exits 1."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import torch
import triton
import triton.language as tl

import bitorder  # noqa: F401  (installs pinned reductions)

CONFIGS = [triton.Config({}, num_warps=w, num_stages=s) for w in (1, 2, 4, 8) for s in (1, 2, 3)]
ROWS, COLS, BLOCK = 512, 1000, 1024


@triton.autotune(CONFIGS, key=["n_cols"])
@triton.jit
def free_row_sum(x_ptr, y_ptr, n_cols, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + tl.program_id(0) * n_cols + offs, mask=offs < n_cols, other=0.0)
    tl.store(y_ptr + tl.program_id(0), tl.sum(x, axis=0))


@triton.autotune(CONFIGS, key=["n_cols"])
@triton.jit
def pinned_row_sum(x_ptr, y_ptr, n_cols, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + tl.program_id(0) * n_cols + offs, mask=offs < n_cols, other=0.0)
    tl.store(y_ptr + tl.program_id(0), tl.sum(x, axis=0, pinned=True))


def wrong_merges(kernels: list, outputs: dict) -> tuple[int, dict]:
    """(wrong merges, per kernel {variants, launch options seen, classes, true classes}) of `bitorder check
    --json`'s kernels against {(kernel name, "warps=W stages=S"): bytes}: a wrong merge is a class member whose
    bytes are not its first's."""
    wrong, table = 0, {}
    for k in kernels:
        name = k["kernel"].split()[0]
        labels = [[" ".join(m.split()[1:3]) for m in c["members"]] for c in k["classes"]]
        got = [[outputs[(name, label)] for label in members] for members in labels]
        wrong += sum(b != members[0] for members in got for b in members[1:])
        table[k["kernel"]] = {"variants": k["variants"], "options_seen": len({x for m in labels for x in m}),
                              "classes": len(k["classes"]), "true_classes": len({b for members in got for b in members})}
    return wrong, table


def main(out: str) -> int:
    torch.manual_seed(7)
    x = torch.randn(ROWS, COLS, device="cuda") * torch.exp2(torch.randint(-20, 21, (ROWS, COLS), device="cuda"))
    outputs = {}
    for tuned in (free_row_sum, pinned_row_sum):
        y = torch.empty(ROWS, device="cuda")
        tuned[(ROWS,)](x, y, COLS, BLOCK=BLOCK)      # the autotuner compiles and times every configuration
        for c in CONFIGS:
            y = torch.empty(ROWS, device="cuda")
            tuned.fn[(ROWS,)](x, y, COLS, BLOCK=BLOCK, num_warps=c.num_warps, num_stages=c.num_stages)
            outputs[(tuned.fn.__name__, f"warps={c.num_warps} stages={c.num_stages}")] = \
                bytes(y.view(torch.int32).cpu().numpy().tobytes())
    torch.cuda.synchronize()
    cache = os.environ["TRITON_CACHE_DIR"]
    listing = out + ".classes.json"
    p = subprocess.run([sys.executable, "-m", "bitorder", "check", cache, "--json", listing],
                       capture_output=True, text=True)
    print(p.stdout[-3000:], p.stderr[-2000:])
    kernels = [k for k in json.load(open(listing))["kernels"] if k["kernel"].split()[0] in
               ("free_row_sum", "pinned_row_sum")]
    wrong, table = wrong_merges(kernels, outputs)
    summary = {"device": torch.cuda.get_device_name(), "check_exit": p.returncode, "kernels": table,
               "variants": sum(t["variants"] for t in table.values()), "wrong_merges": wrong}
    with open(out, "w") as f:
        json.dump(summary, f, indent=1)
    print(json.dumps(summary))
    ok = p.returncode == 0 and wrong == 0 and len(table) == 2 and \
        all(t["options_seen"] == len(CONFIGS) for t in table.values())   # every configuration was classed
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
