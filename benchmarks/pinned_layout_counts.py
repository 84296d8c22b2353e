"""PTX counts of pinned-suite kernels at the configurations the H200 tuning picked (CPU, sm90):
free, pinned, and pinned with the layout pass, plus how far apart one load instruction's lanes
sit (bytes between neighbouring lanes along the contiguous axis; 16 is coalesced for fp32 x4).
The counts cannot show speed; the lane spacing is what they missed on 2026-11-30b.

    PYTHONPATH=src python benchmarks/pinned_layout_counts.py   # a markdown table on stdout
"""
from __future__ import annotations

import re
import sys

import pinned_suite as ps

import bitorder
from bitorder.compiler import layouts

# (kernel, num_warps, num_stages, kept block, aligned): best pinned time in 2026-11-30b-pinned/pinned.json,
# and one warp, block 1 (where the old pass cost most)
CONFIGS = [("softmax", 4, 1, 1, True), ("softmax", 1, 1, 1, True), ("log_softmax", 4, 1, 1, True),
           ("layernorm", 4, 1, 1, True), ("layernorm", 1, 1, 1, True), ("rmsnorm", 4, 3, 1, True),
           ("rmsnorm", 1, 1, 1, False), ("gemm_colsum", 4, 1, 64, False), ("gemm_colsum", 4, 3, 32, True),
           ("row_sum", 4, 1, 1, True), ("col_sum", 4, 3, 128, True), ("ln_bwd_dw", 4, 3, 64, True)]


def build(name, warps, stages, block, aligned, pinned, on):
    kernel, sig, consts, block_name = ps.signature(name)
    # unaligned: the suite shifts the floating inputs one element (outputs stay aligned)
    al = [a for a in sig if aligned or a in ("y_ptr", "dw_ptr", "t_ptr") or not a.endswith("_ptr")]
    with layouts.applied(on):
        return bitorder.compile(kernel, "sm90", signature=sig, num_warps=warps, num_stages=stages, aligned=al,
                                constexprs={**consts, block_name: block, "PINNED": pinned})


def lane_spacing(c) -> str:
    """Bytes between neighbouring lanes of the first blocked load (fp32), along its contiguous axis."""
    m = re.search(r"tt\.load [^\n]*: tensor<[0-9x]+x!tt\.ptr<f32>, (#blocked\d*)>", c.ttgir)
    if not m:
        return "-"
    body = re.search(rf"^{m.group(1)} = #ttg\.blocked<\{{(.*)\}}>$", c.ttgir, re.M).group(1)
    f = {k: [int(x) for x in v.split(",")] for k, v in re.findall(r"(\w+) = \[([0-9, ]+)\]", body)}
    o = f["order"][0]
    return str(4 * f["sizePerThread"][o]) if f["threadsPerWarp"][o] > 1 else "-"


def counts(c) -> str:
    p = c.ptx
    return "/".join(str(n) for n in (p.count("shfl.sync"), len(re.findall(r"st\.shared", p)), p.count("bar.sync"),
                                     len(re.findall(r"\.local\b", p))))


def main():
    print("| kernel | warps, stages, block, aligned | free | pinned | pinned + pass | lane spacing (B) free / pinned + pass |")
    print("|---|---|---|---|---|---|")
    for name, w, s, b, al in CONFIGS:
        free, stock, laid = (build(name, w, s, b, al, p, on) for p, on in ((False, False), (True, False), (True, True)))
        print(f"| {name} | {w}, {s}, {b}, {'yes' if al else 'no'} | {counts(free)} | {counts(stock)} | {counts(laid)} | "
              f"{lane_spacing(free)} / {lane_spacing(laid)} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
