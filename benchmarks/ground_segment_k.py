"""Ground check of the algorithm-42 segment-K candidate (bitorder.cublas.segment_k) on fresh H200 calls.

    BITORDER_UNVERIFIED=1 python benchmarks/ground_segment_k.py --out DIR [--calls 40] [--budget S] [--variant NAME]

Draws fresh bf16 torch.matmul shapes (layout nt, N <= 64, M past one wave of 132 64-row tiles by 1-20 tiles,
K spread so that the workspace rule gives several segment counts), asks cuBLASLt's heuristic (bitorder's
plan), keeps the calls answered by algorithm 42 with split_k -1, and compares torch's output bytes with the
candidate's twin (segment_k.matmul) on every output of 12 left-over rows (the first, the last, 10 drawn)
and 3 data-parallel rows, three draws each (narrow, wide, cancelling). --variant runs a planted fault or an
alternative (fit_segment_k.VARIANTS: longer_first must fail; s_always_8 and reverse are the records' open
alternatives). Writes ground_segment_k[-VARIANT].json; exit 1 when any compared output differs. GPU."""
from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


def cases(n: int, seed: int) -> list:
    from bitorder.gemm.shapes import Case
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        tiles = 132 + rng.randint(1, 20)
        m = 64 * tiles - rng.randint(0, 63)
        out.append(Case("mm", "bf16", m, rng.randint(8, 64), int(2 ** rng.uniform(12.5, 15.5)), 1, "nt", "fuzz"))
    return out


def _twin(task):
    """The candidate's bf16 outputs (as fp32 values) for the rows `idx` of one draw (a worker's share)."""
    from bitorder.cublas import segment_k as S
    a_rows, b, p, idx = task
    return np.concatenate([S.epilogue(S.accumulate_row(a_rows[j], b, p, i), p.plain, p.dtype)
                           for j, i in enumerate(idx)], axis=0).astype(np.float32)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--calls", type=int, default=40, help="shapes drawn (those algorithm 42 / -1 answers are kept)")
    ap.add_argument("--seed", type=int, default=20261840)
    ap.add_argument("--budget", type=float, default=200, help="seconds for the GPU part (drawing and torch's calls)")
    ap.add_argument("--jobs", type=int, default=14, help="processes for the twin (it walks each row in Python)")
    ap.add_argument("--variant", default="candidate")
    args = ap.parse_args(argv)
    import multiprocessing as mp
    import torch
    import fit_segment_k as F
    from gate_gemm import draw
    from bitorder.cublas import segment_k as S
    from bitorder.gemm import api
    t0, rows, answers, tasks = time.time(), [], {}, []
    for case in cases(args.calls, args.seed):
        if time.time() - t0 > args.budget:
            break
        a, b, _ = draw(case, args.seed, "narrow")
        ans = api.plan(a, b).answer or {}
        key = f"{ans.get('algo_id')}/{ans.get('split_k')}"
        answers[key] = answers.get(key, 0) + 1
        p = S.plan(ans, case.m, case.n, case.k, "bf16", **F.VARIANTS[args.variant])
        if p is None:
            continue
        # the twin walks each row's chains in Python: 12 left-over rows (first, last, 10 drawn) and 3 of the wave
        left = list(range(p.dp_rows, case.m))
        idx = sorted({left[0], left[-1], *random.Random(case.m + case.k).sample(left, min(10, len(left))),
                      0, p.dp_rows // 2, p.dp_rows - 1})
        row = {"case": case.__dict__, "answer": ans, "segments": len(p.bounds) - 1, "rows": idx, "draws": {}}
        for kind in ("narrow", "wide", "cancel"):
            a, b, _ = draw(case, args.seed + len(rows), kind)
            got = torch.matmul(a, b).float().cpu().numpy()[idx]
            tasks.append((len(rows), kind, got, (a.float().cpu().numpy()[idx].astype(np.float64),
                                                 b.float().cpu().numpy().astype(np.float64), p, idx)))
        rows.append(row)
    print(f"[ground] {len(rows)} calls planned by the {args.variant} in {time.time() - t0:.0f} s; answers {answers}", flush=True)
    with mp.get_context("spawn").Pool(args.jobs) as pool:
        wants = pool.map(_twin, [t[3] for t in tasks])
    for (i, kind, got, _), want in zip(tasks, wants):
        bad = int((want.view(np.int32) != got.astype(np.float32).view(np.int32)).sum())
        rows[i]["draws"][kind] = {"outputs": int(got.size), "differ": bad}
    for r in rows:
        c = r["case"]
        print(c["m"], c["n"], c["k"], "s", r["segments"], {k: v["differ"] for k, v in r["draws"].items()}, flush=True)
    differ = sum(d["differ"] for r in rows for d in r["draws"].values())
    report = {"variant": args.variant, "device": torch.cuda.get_device_name(), "seconds": round(time.time() - t0, 1),
              "answers": answers, "calls": len(rows), "outputs": sum(d["outputs"] for r in rows for d in r["draws"].values()),
              "outputs_differ": differ, "calls_differ": sum(any(d["differ"] for d in r["draws"].values()) for r in rows),
              "segments": sorted({r["segments"] for r in rows}), "rows": rows}
    os.makedirs(args.out, exist_ok=True)
    name = "ground_segment_k" + ("" if args.variant == "candidate" else f"-{args.variant}") + ".json"
    with open(os.path.join(args.out, name), "w") as f:
        json.dump(report, f, indent=1)
    print({k: v for k, v in report.items() if k != "rows"})
    return 1 if differ or not rows else 0


if __name__ == "__main__":
    sys.exit(main())
