"""Check the SIMT gemv kernel (bitorder.gemm.simt) against cuBLAS on the calls the gemv probe pinned.

For every algorithm-13 call of the probe's fit (benchmarks/results/2026-11-30d-components/
probe_gemv_fit.json) whose surviving summation orders form one distinct tree, the kernel runs that
order on the call's own shape, dtype and layout, and torch runs the call, on three fresh draws
(narrow, wide-range, cancelling: benchmarks/gate_gemm.draw); a call passes when the outputs are
byte-identical on all three (int16 view, no tolerance). This is the evidence a planner rule for
gemv needs before it may route a call to the kernel; nothing here plans.

    python benchmarks/gemv_check.py --out DIR [--seed S]      (GPU; scripts/gpu-run OUT gemv-check)
    python benchmarks/gemv_check.py --list                     (CPU: the calls and orders it would check)
"""
from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "src"))
from bitorder.emulate.simt import GemvOrder  # noqa: E402
from bitorder.gemm.shapes import Case  # noqa: E402

FIT = os.path.join(HERE, "results", "2026-11-30d-components", "probe_gemv_fit.json")
_FIELD = re.compile(r"(\w+)=(\S+)")


def parse_order(text: str) -> GemvOrder:
    """GemvOrder from its str() form: 'GemvOrder(lanes=4 chunk=64 fold=down span=1021 merge=sequential fma bias=acc)'."""
    body = text[text.index("(") + 1:text.rindex(")")]
    f = dict(_FIELD.findall(body))
    product = "mul_add" if " mul_add" in f" {body}" else "fma"
    return GemvOrder(lanes=int(f["lanes"]), chunk=int(f["chunk"]) if "chunk" in f else None, fold=f["fold"],
                     span=int(f["span"]) if "span" in f else None, merge=f.get("merge", "sequential"),
                     product=product, bias=f.get("bias", "acc"))


def checks(fit_path: str = FIT) -> list:
    """[(record index, Case, GemvOrder, kernel kind)]: the probe's calls pinned to one distinct tree."""
    out = []
    for r in json.load(open(fit_path))["records"]:
        settled = r.get("settled") or {}
        if r.get("pinned") and settled.get("distinct_trees") == 1 and r["op"] in ("mm", "linear_bias"):
            case = Case(r["op"], r["dtype"], r["m"], r["n"], r["k"], 1, r["layout"], "gemv-check")
            out.append((r["i"], case, parse_order(r["examples"][0]), r["kind"]))
    return out


def run(out_dir: str, seed: int, fit_path: str) -> int:
    import torch
    import torch.nn.functional as F

    from bitorder.gemm.simt import gemv
    from gate_gemm import draw
    rows, t0 = [], time.time()
    for i, case, order, kind in checks(fit_path):
        row = {"record": i, "case": case.to_dict(), "order": str(order), "kind": kind, "draws": {}}
        for d, how in enumerate(("narrow", "wide", "cancel")):
            a, b, bias = draw(case, seed + d, how)
            ref = torch.matmul(a, b) if case.op == "mm" else F.linear(a, b.t(), bias)
            ours = gemv(a, b, order, bias=bias)
            row["draws"][how] = bool(torch.equal(ours.contiguous().view(torch.int16), ref.contiguous().view(torch.int16)))
        row["identical"] = all(row["draws"].values())
        rows.append(row)
        print(f"#{i:<3} {case.op:<12} {case.dtype} {case.m}x{case.n}x{case.k} {case.layout}  {order}  "
              f"{'identical' if row['identical'] else 'DIFFERS ' + str(row['draws'])}", flush=True)
    summary = {"device": torch.cuda.get_device_name(), "torch": torch.__version__, "seed": seed, "fit": fit_path,
               "calls": len(rows), "identical": sum(r["identical"] for r in rows), "seconds": round(time.time() - t0, 1)}
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, "gemv_check.json"), "w") as f:
        json.dump({"summary": summary, "rows": rows}, f, indent=1)
    print(json.dumps(summary))
    return 0 if summary["identical"] == summary["calls"] else 1


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", help="GPU: write gemv_check.json here")
    ap.add_argument("--list", action="store_true", help="CPU: print the calls and orders it would check")
    ap.add_argument("--fit", default=FIT)
    ap.add_argument("--seed", type=int, default=20261201)
    a = ap.parse_args()
    if a.list or not a.out:
        for i, case, order, kind in checks(a.fit):
            print(f"#{i:<3} {case.op:<12} {case.dtype} {case.m}x{case.n}x{case.k} {case.layout}  {order}  {kind}")
        return 0
    return run(a.out, a.seed, a.fit)


if __name__ == "__main__":
    sys.exit(main())
