"""The dot kernels (bitorder.gemm.simt.dot, algorithm 14's order) against cuBLAS on the GPU, byte for byte.

For fp16 and bf16: a K ladder (odd and even, one step per thread and several, grids 496 / 528 /
128 as the heuristic answers) plus log-uniform random K in [2, 2^20], torch.matmul of a 1 x K row
and a K x 1 column and F.linear with one output and a bias; three fresh draws each (narrow, wide,
cancelling; bitorder.draws). The grid is the heuristic answer's split_k (bitorder.gemm.plan under
BITORDER_UNVERIFIED=1). Then designed rows that tell the x / y accumulators from one chain past
one step per thread (+L at 0, -L at 1, r at 2P: 0 with two accumulators, r with one chain).
With --strided: designed rows for the strided order (a row of outputs with b row-major, a column
with a transposed: DotOrder vec 1): +L at step 0 of thread 0, -L at its step s, r at step s + 1
(s = 1, 2, 3): one chain per thread gives r, accumulators taken in turn by the steps would lose it.
Writes DIR/dot_check.json; exit 1 on any difference.

    python benchmarks/dot_check.py --out DIR [--random N] [--seed S] [--strided]   (GPU; scripts/gpu-run OUT dot-check)
"""
from __future__ import annotations

import argparse
import json
import math
import os
import random
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "src"))
os.environ["BITORDER_UNVERIFIED"] = "1"       # the dot candidate plans: what this run decides
LADDER = (2, 3, 17, 255, 256, 1000, 8193, 33333, 63489, 126977, 126978, 200000, 253953, 500001, 1048576)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True)
    ap.add_argument("--random", type=int, default=120, help="random K per dtype")
    ap.add_argument("--seed", type=int, default=20261201)
    ap.add_argument("--strided", action="store_true", help="the strided designed rows only")
    args = ap.parse_args()
    if args.strided:
        return strided(args)
    import torch
    import torch.nn.functional as F
    from gate_gemm import draw
    from bitorder.gemm import api
    from bitorder.gemm.shapes import Case
    from bitorder.gemm.simt import dot
    rng = random.Random(args.seed)
    t0, rows, bad = time.time(), [], 0
    for dt in ("fp16", "bf16"):
        ks = list(LADDER) + [max(2, int(math.exp(rng.uniform(math.log(2), math.log(1 << 20))))) for _ in range(args.random)]
        for i, k in enumerate(ks):
            for op in ("mm", "linear_bias"):
                case = Case(op, dt, 1, 1, k, 1, "nn", "dot-check")
                same = []
                for j, kind in enumerate(("narrow", "wide", "cancel")):
                    a, b, bias = draw(case, args.seed * 7 + i * 3 + j, kind)
                    p = api.plan(a, b, None)
                    if p.path != "dot":
                        same.append(None)
                        continue
                    ref = torch.matmul(a, b) if op == "mm" else F.linear(a, b.t(), bias)
                    got = dot(a, b, p.order, bias=bias)
                    same.append(bool(torch.equal(got.view(torch.int16), ref.view(torch.int16))))
                ok = all(s is not False for s in same)
                bad += not ok
                rows.append({"dtype": dt, "k": k, "op": op, "grid": p.order.grid if p.order else None, "same": same})
                if not ok:
                    print(f"[dot-check] DIFF {dt} {op} K={k} grid={rows[-1]['grid']}: {same}", flush=True)
    # x / y accumulators against one chain: +L at 0 (x, step 0), -L at 1 (y, step 0), r at 2P (x, step 1)
    designed = []
    for dt in ("fp16", "bf16"):
        tdt = {"fp16": torch.float16, "bf16": torch.bfloat16}[dt]
        for k in (200000, 253953):
            a = torch.zeros(1, k, dtype=tdt, device="cuda")
            b = torch.ones(k, 1, dtype=tdt, device="cuda")
            order = api.plan(a, b).order
            two_p = 2 * order.grid * 128
            for r_at in (two_p, two_p + 1):
                a.zero_()
                a[0, 0], a[0, 1], a[0, r_at] = 1.5 * 2 ** 14, -1.5 * 2 ** 14, 2.0 ** -11
                ref = torch.matmul(a, b)
                got = dot(a, b, order)
                designed.append({"dtype": dt, "k": k, "r_at": r_at, "cublas": float(ref), "ours": float(got),
                                 "same": bool(torch.equal(got.view(torch.int16), ref.view(torch.int16)))})
                bad += not designed[-1]["same"]
                print(f"[dot-check] designed {designed[-1]}", flush=True)
    n = sum(1 for r in rows if any(s is not None for s in r["same"]))
    summary = {"cases": len(rows), "planned_dot": n, "differ": bad, "seconds": round(time.time() - t0, 1),
               "device": torch.cuda.get_device_name(), "torch": torch.__version__}
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "dot_check.json"), "w") as f:
        json.dump({"summary": summary, "rows": rows, "designed": designed}, f)
    print(f"[dot-check] {json.dumps(summary)}", flush=True)
    return 1 if bad else 0


def strided(args) -> int:
    """The designed rows of --strided (module docstring); rows whose call cuBLAS does not answer
    with algorithm 14 under a vec-1 DotOrder are recorded as skipped."""
    import torch
    from bitorder.gemm import api
    t0, rows, bad = time.time(), [], 0
    for dt in ("fp16", "bf16"):
        tdt = {"fp16": torch.float16, "bf16": torch.bfloat16}[dt]
        for k in (20000, 60000, 200000):
            for column in (False, True):
                mat = torch.zeros(k, 3, dtype=tdt, device="cuda")               # row-major: each output's vector strided by 3
                vec = torch.ones(1, k, dtype=tdt, device="cuda")
                a, b = (mat.t(), vec.t()) if column else (vec, mat)
                p = api.plan(a, b)
                if p.path != "dots" or p.order.vec != 1:
                    rows.append({"dtype": dt, "k": k, "column": column, "skipped": p.path})
                    continue
                P = p.order.grid * 128
                for s in (1, 2, 3):
                    if (s + 1) * P >= k:
                        continue
                    mat.zero_()
                    mat[0, 0], mat[s * P, 0], mat[(s + 1) * P, 0] = 1.5 * 2 ** 14, -1.5 * 2 ** 14, 2.0 ** -11
                    ref = torch.matmul(a, b)
                    got = api.matmul(a, b)
                    rows.append({"dtype": dt, "k": k, "column": column, "grid": p.order.grid, "s": s,
                                 "cublas": float(ref.flatten()[0]), "ours": float(got.flatten()[0]),
                                 "same": bool(torch.equal(got.view(torch.int16), ref.view(torch.int16)))})
                    bad += not rows[-1]["same"]
                    print(f"[dot-check] strided {rows[-1]}", flush=True)
    summary = {"designed": sum("same" in r for r in rows), "differ": bad, "seconds": round(time.time() - t0, 1),
               "device": torch.cuda.get_device_name(), "torch": torch.__version__}
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "dot_check_strided.json"), "w") as f:
        json.dump({"summary": summary, "rows": rows}, f)
    print(f"[dot-check] {json.dumps(summary)}", flush=True)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
