"""The layout pass on the pinned suite (CPU, no GPU): each of the twelve kernels compiled for sm90
pinned, with and without bitorder.compiler.layouts, over num_warps 1/4/8 and the kept blocks:
which loads the pass re-laid out, shared-memory stores and shuffles in the PTX, and whether
bitorder.check finds the same dependence tree (the bits cannot move) - plus the free-order
kernel for comparison. Speed needs the H200 (the pinned suite with BITORDER_PINNED_LAYOUTS=1).

    python benchmarks/pinned_layouts.py --out DIR
"""
from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time

import pinned_suite as ps

import bitorder
from bitorder import check
from bitorder.compiler import layouts

def build(name, block, warps, pinned, on):
    kernel, sig, consts, block_name = ps.signature(name)
    with layouts.applied(on):
        return bitorder.compile(kernel, "sm90", signature=sig, num_warps=warps, aligned=list(sig),
                                constexprs={**consts, block_name: block, "PINNED": pinned})


def ops(ttgir: str) -> str:
    """TTGIR without source locations (a cached compile may name another path)."""
    return re.sub(r" loc\(.*\)$", "", "\n".join(ln for ln in ttgir.splitlines() if not ln.startswith("#loc")), flags=re.M)


def counts(c):
    return {"st.shared": c.ptx.count("st.shared"), "shfl": c.ptx.count("shfl.sync"), "bar": c.ptx.count("bar.sync")}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    rows, t0 = [], time.time()
    for name, spec in ps.CASES.items():
        for block in spec[5][:2]:
            for warps in (1, 4, 8):
                stock, laid, free = (build(name, block, warps, True, False), build(name, block, warps, True, True),
                                     build(name, block, warps, False, False))
                v = check.equivalent(stock.ptx, laid.ptx)
                row = {"kernel": name, "block": block, "num_warps": warps, "rewritten": ops(stock.ttgir) != ops(laid.ttgir),
                       "pinned": counts(stock), "pinned_laid_out": counts(laid), "free": counts(free),
                       "equivalent": v.equivalent, "why": v.explanation}
                rows.append(row)
                print(f"{name:14s} block {block:5} warps {warps}: rewritten {row['rewritten']!s:5} st.shared "
                      f"{row['pinned']['st.shared']:4} -> {row['pinned_laid_out']['st.shared']:4} (free "
                      f"{row['free']['st.shared']:3}) equivalent {v.equivalent}", flush=True)
    summary = {"configs": len(rows), "rewritten": sum(r["rewritten"] for r in rows),
               "rewritten_equivalent": sum(r["equivalent"] for r in rows if r["rewritten"]),
               "not_equivalent": [r for r in rows if not r["equivalent"]], "seconds": round(time.time() - t0, 1)}
    with open(os.path.join(args.out, "pinned_layouts.json"), "w") as f:
        json.dump({"summary": summary, "rows": rows}, f, indent=1)
    print(json.dumps({k: v for k, v in summary.items() if k != "not_equivalent"}),
          "not equivalent:", [(r["kernel"], r["block"], r["num_warps"]) for r in summary["not_equivalent"]])
    return 0


if __name__ == "__main__":
    sys.exit(main())
