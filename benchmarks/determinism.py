"""Is cuBLAS deterministic on these calls? The same torch call on the same inputs, several times (GPU).

Before a probe designs inputs to read a kernel's summation order, the order must be one order: a
kernel whose bits move between identical calls (atomics, a stream-K fix-up racing) has no
profile entry, only the cuBLAS fallback. For each case (a gate case list: {"not_reached_cases"}
or {"mismatches": [{"case"}]}) and each draw (narrow, wide), torch's call runs REPEAT times on the
same operands, with an unrelated GEMM between calls (another workspace state), and every output is
compared bytewise with the first. Writes determinism.json: per case and draw, the runs that differ
and how many elements.

    python benchmarks/determinism.py CASES.json --out DIR [--repeat 4] [--seed S] [--budget S]
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import torch  # noqa: E402

from gate_gemm import bits, draw  # noqa: E402
from neighbors import cases_of  # noqa: E402
from bitorder.gemm.shapes import Case  # noqa: E402


def load_cases(path: str) -> list[Case]:
    """The cases of a rerun, survey or gate file (neighbors.cases_of reads all three)."""
    return [Case(**{k: r[k] for k in ("op", "dtype", "m", "n", "k", "batch", "layout", "group")}) for r in cases_of(path)]


def torch_call(case: Case, a, b, bias):
    if case.op in ("mm", "bmm"):
        return torch.matmul(a, b)
    return torch.nn.functional.linear(a, b.transpose(-1, -2), bias)


def check(case: Case, seed: int, repeat: int) -> dict:
    """{draw: {"differ": [run, ...], "elements": [count, ...]}} for `repeat` calls on one draw."""
    row = {"case": case.to_dict(), "draws": {}}
    other = torch.randn(1024, 1024, device="cuda", dtype=torch.float16)
    for i, kind in enumerate(("narrow", "wide")):
        a, b, bias = draw(case, seed + i, kind)
        first = bits(torch_call(case, a, b, bias)).clone()
        differ, elements = [], []
        for r in range(1, repeat):
            torch.matmul(other, other)          # another kernel between the calls
            out = bits(torch_call(case, a, b, bias))
            n = int((out != first).sum())
            if n:
                differ.append(r)
                elements.append(n)
        torch.cuda.synchronize()
        row["draws"][kind] = {"differ": differ, "elements": elements}
    row["deterministic"] = not any(d["differ"] for d in row["draws"].values())
    return row


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("cases")
    ap.add_argument("--out", required=True)
    ap.add_argument("--repeat", type=int, default=4)
    ap.add_argument("--seed", type=int, default=20261700)
    ap.add_argument("--budget", type=float, default=60)
    args = ap.parse_args(argv)
    os.makedirs(args.out, exist_ok=True)
    t0, rows = time.time(), []
    cases = load_cases(args.cases)
    for case in cases:
        if time.time() - t0 > args.budget:
            break
        rows.append(check(case, args.seed, args.repeat))
        print(f"[determinism] {case.op} {case.dtype} {case.m}x{case.n}x{case.k} {case.layout}: "
              f"{'same' if rows[-1]['deterministic'] else 'DIFFERS'}", flush=True)
    report = {"cases": len(cases), "checked": len(rows), "repeat": args.repeat,
              "deterministic": sum(r["deterministic"] for r in rows), "rows": rows,
              "seconds": round(time.time() - t0, 1)}
    with open(os.path.join(args.out, "determinism.json"), "w") as f:
        json.dump(report, f, indent=1)
    print(f"[determinism] {report['deterministic']} of {len(rows)} checked deterministic ({len(cases)} cases)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
