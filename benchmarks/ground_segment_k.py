"""Ground check of the segment-K reading (bitorder.cublas.segment_k) on fresh H200 calls, torch's bits kept.

    BITORDER_UNVERIFIED=1 python benchmarks/ground_segment_k.py --out DIR [--calls42 36] [--calls41 12]
        [--budget S] [--jobs 14] [--variants candidate,pairwise_first,...]

Draws fresh torch.matmul shapes in the records' regions: algorithm 42 (bf16 nt, N <= 64, one wave of 132
64-row tiles plus 1-20, K 5.8k-46k) and algorithm 41 (fp16 nt, 128x128 tiles, two waves plus 2-66, K
1,944-2,286); plans them on uninitialised operands (cuBLASLt's heuristic only) and keeps the calls answered
by that algorithm with split_k -1 that segment_k plans, at most --per-s calls per segment count s (42) so
that the kept calls spread over s. Each kept call runs three draws (gate_gemm.draw, seed --seed + the
call's index: narrow, wide, cancel); torch's output bits on the checked rows (42: 12 left-over rows and 3
wave rows; 41: two rows of each left-over n-tile row, the last row and 3 data-parallel rows), every column,
are kept, and each variant's twin (fit_segment_k.VARIANTS: one set of chains per call, draw and segment
bounds, merged each way) is compared with them output by output on the CPU, where the operands are
rebuilt from the draws' hashes (checked against the GPU's rows for every call).

Writes ground_segment_k.json (per call: case, answer, s, rows, seed; per draw and variant how many outputs
differ) and ground_segment_k-bits.json.gz (load_bits: torch's bits per call and draw, rows x columns; for
each variant its differing outputs as [row, column, torch's bits, the twin's bits], at most --keep per call,
draw and variant). Exit 1 when the candidate differs anywhere (or no call was kept). GPU.

--triton: each draw also runs bitorder.matmul (which must plan "segk": bitorder.gemm.segment_k) and compares
its whole output with torch's byte for byte (per call and draw: differ_torch), and its checked rows with the
candidate twin's (differ_twin: the kernel against the reading it implements); exit 1 when either differs
anywhere or a call planned another path."""
from __future__ import annotations

import argparse
import base64
import gzip
import json
import os
import random
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

SEED = 20261903      # fresh shapes and draws (2026-12-02d call 2 ran 20261840: fit_segment_k.GROUND_SEED)
KINDS = ("narrow", "wide", "cancel")
VARIANTS = "candidate,pairwise_first,part0_last,longer_first,s_always_8,rowmajor"


def cases42(n: int, seed: int) -> list:
    from bitorder.gemm.shapes import Case
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        tiles = 132 + rng.randint(1, 20)
        m = 64 * tiles - rng.randint(0, 63)
        out.append(Case("mm", "bf16", m, rng.randint(8, 64), int(2 ** rng.uniform(12.5, 15.5)), 1, "nt", "fuzz"))
    return out


def cases41(n: int, seed: int) -> list:
    """fp16 nt shapes of 266-330 128x128 tiles (the survey-41 records' region), K 1,940-2,290."""
    from bitorder.gemm.shapes import Case
    rng = random.Random(seed + 41)
    out = []
    while len(out) < n:
        m, nn = rng.randint(1550, 2450), rng.randint(1790, 2950)
        if 266 <= -(-m // 128) * -(-nn // 128) <= 330:
            out.append(Case("mm", "fp16", m, nn, rng.randint(1940, 2290), 1, "nt", "fuzz"))
    return out


def checked_rows(p, m: int, rng: random.Random) -> list:
    """Torch rows whose every column is compared: left-over rows and three data-parallel ones."""
    t = p.tile
    if p.mt == 1:       # algorithm 42: rows >= dp_rows are left over
        left = list(range(p.dp_rows, m))
        return sorted({left[0], left[-1], *rng.sample(left, min(10, len(left))), 0, p.dp_rows // 2, p.dp_rows - 1})
    first_nt = p.first_split // p.mt            # the n-tile row the left-over tiles start in
    rows = {m - 1, 0, (first_nt // 2) * t, first_nt * t - 1}
    for nt in range(first_nt, p.nt):
        lo, hi = nt * t, min(m, nt * t + t) - 1
        rows |= {lo, rng.randint(lo, hi)}
    return sorted(rows)


def _twin(task):
    """{variant: int16 bits (rows x cols)} for one call and draw (fit_segment_k.twin_bits)."""
    import fit_segment_k as F
    return F.twin_bits(*task)


def _b64(x: np.ndarray) -> dict:
    x = np.ascontiguousarray(x, "<i2")
    return {"shape": list(x.shape), "int16_b64": base64.b64encode(x.tobytes()).decode()}


def write_bits(out: str, rows: list, torch_bits: list, diffs: list) -> None:
    """ground_segment_k-bits.json.gz: per call its case, answer, seed, rows, torch's bits per draw and the
    variants' differing outputs."""
    os.makedirs(out, exist_ok=True)
    bits = {"calls": [{"case": r["case"], "answer": r["answer"], "seed": r["seed"], "rows": r["rows"],
                       "torch": {k: _b64(v) for k, v in tb.items()}, "differ": d}
                      for r, tb, d in zip(rows, torch_bits, diffs)]}
    with gzip.open(os.path.join(out, "ground_segment_k-bits.json.gz"), "wt") as f:
        json.dump(bits, f)


def load_bits(path: str) -> dict:
    """ground_segment_k-bits.json.gz with every int16 array decoded (numpy)."""
    def dec(o):
        if isinstance(o, dict):
            if "int16_b64" in o:
                return np.frombuffer(base64.b64decode(o["int16_b64"]), "<i2").reshape(o["shape"])
            return {k: dec(v) for k, v in o.items()}
        return [dec(v) for v in o] if isinstance(o, list) else o
    with gzip.open(path, "rt") as f:
        return dec(json.load(f))


def select(args, S, F, api, shell) -> tuple:
    """The kept calls [(case, answer, plans)] and the heuristic's answers' counts."""
    variants = args.variants.split(",")
    kept, answers, per_s = [], {}, {}
    for algo, draw, want in ((42, cases42, args.calls42), (41, cases41, args.calls41)):
        n, t0 = 0, time.time()
        for case in draw(args.draw, args.seed):
            if n >= want or time.time() - t0 > args.plan_budget:
                break
            a, b, _ = shell(case)
            ans = api.plan(a, b).answer or {}
            del a, b
            key = f"{case.dtype}:{ans.get('algo_id')}/{ans.get('split_k')}"
            answers[key] = answers.get(key, 0) + 1
            p = S.plan(ans, case.m, case.n, case.k, case.dtype)
            if p is None or ans.get("algo_id") != algo:
                continue
            s = len(p.bounds) - 1
            if algo == 42 and per_s.get(s, 0) >= args.per_s:
                continue
            per_s[s] = per_s.get(s, 0) + 1
            plans = {v: S.plan(ans, case.m, case.n, case.k, case.dtype, **F.VARIANTS[v]) for v in variants}
            if p.mt == 1:       # one tile column: every tile order is the same (no twin to run twice)
                plans.pop("rowmajor", None)
            kept.append((case, ans, plans))
            n += 1
    print(f"[ground] planned: kept {len(kept)}, s {dict(sorted(per_s.items()))}, "
          f"answers {answers}", flush=True)
    return kept, answers


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--calls42", type=int, default=36)
    ap.add_argument("--calls41", type=int, default=12)
    ap.add_argument("--draw", type=int, default=600, help="shapes drawn per algorithm (planned only)")
    ap.add_argument("--per-s", type=int, default=4, help="algorithm-42 calls kept per segment count")
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--plan-budget", type=float, default=30, help="seconds of planning per algorithm")
    ap.add_argument("--budget", type=float, default=120, help="seconds for torch's calls")
    ap.add_argument("--jobs", type=int, default=14, help="processes for the twins")
    ap.add_argument("--keep", type=int, default=4000, help="differing outputs stored per call, draw and variant")
    ap.add_argument("--variants", default=VARIANTS)
    ap.add_argument("--triton", action="store_true", help="bitorder.matmul's segment-K path too")
    args = ap.parse_args(argv)
    import multiprocessing as mp
    import torch
    import fit_segment_k as F
    from gate_gemm import draw, shell
    import bitorder
    from bitorder.cublas import segment_k as S
    from bitorder.gemm import api
    kept, answers = select(args, S, F, api, shell)
    print(f"[ground] bitorder from {os.path.dirname(bitorder.__file__)}", flush=True)
    t0, rows, tasks, torch_bits, rebuilt, mine = time.time(), [], [], [], [], []
    for case, ans, plans in kept:
        if time.time() - t0 > args.budget:
            break
        p, i = plans["candidate"], len(rows)
        idx = checked_rows(p, case.m, random.Random(case.m + case.k))
        row = {"case": case.__dict__, "answer": ans, "segments": len(p.bounds) - 1, "rows": idx,
               "seed": args.seed + i, "draws": {}}
        torch_bits.append({})
        mine.append({})
        for kind in KINDS:
            a, b, _ = draw(case, args.seed + i, kind)
            full = torch.matmul(a, b)
            got = full[idx].contiguous().view(torch.int16).cpu().numpy()
            torch_bits[i][kind] = got
            if args.triton:     # bitorder.matmul on the same operands: the whole output against torch's
                ours = bitorder.matmul(a, b)
                row.setdefault("triton", {})[kind] = {
                    "path": api.plan(a, b).path, "outputs": full.numel(),
                    "differ_torch": int((ours.view(torch.int16) != full.view(torch.int16)).sum())}
                mine[i][kind] = ours[idx].contiguous().view(torch.int16).cpu().numpy()
                del ours
            del full
            if kind == "cancel":    # the CPU rebuilds the operands from the hash: check it (A's rows, 3 of B's columns)
                bc = sorted({0, case.n // 2, case.n - 1})
                ra, rb = F.ground_inputs(row, args.seed + i, kind, bc)
                ga, gb = a[idx].double().cpu().numpy(), b[:, bc].double().cpu().numpy()
                rebuilt.append(bool(np.array_equal(ga, ra) and np.array_equal(gb, rb)))
            del a, b
            tasks.append((i, kind, (row, args.seed + i, kind, plans)))
        rows.append(row)
    print(f"[ground] {len(rows)} calls run in {time.time() - t0:.0f} s; operands rebuilt on the CPU: "
          f"{sum(rebuilt)} of {len(rebuilt)}", flush=True)
    write_bits(args.out, rows, torch_bits, [{} for _ in rows])     # torch's bits first: they outlive a killed twin
    with mp.get_context("spawn").Pool(args.jobs) as pool:
        twins = pool.map(_twin, [t[2] for t in tasks], chunksize=1)
    diffs = [{} for _ in rows]
    for (i, kind, _), tw in zip(tasks, twins):
        got = torch_bits[i][kind]
        r = rows[i]
        r["draws"][kind] = {"outputs": int(got.size)}
        for v, bits in tw.items():
            bad = np.argwhere(bits != got)
            r["draws"][kind][v] = len(bad)
            diffs[i].setdefault(kind, {})[v] = [[r["rows"][x], int(y), int(got[x, y]), int(bits[x, y])]
                                                for x, y in bad[:args.keep]]
    for (i, kind, _), tw in zip(tasks, twins):
        if kind in mine[i] and "candidate" in tw:
            rows[i]["triton"][kind]["differ_twin"] = int((mine[i][kind] != tw["candidate"]).sum())
    variants = args.variants.split(",")
    summary = {v: {"calls_differ": sum(any(d.get(v, 0) for d in r["draws"].values()) for r in rows),
                   "outputs_differ": sum(d.get(v, 0) for r in rows for d in r["draws"].values()),
                   "calls_planned": sum(v in r["draws"].get("narrow", {}) for r in rows)}
               for v in variants}
    for r in rows:
        c = r["case"]
        print(c["dtype"], r["answer"]["algo_id"], c["m"], c["n"], c["k"], "s", r["segments"],
              {k: {v: d.get(v) for v in variants if v in d} for k, d in r["draws"].items()}, flush=True)
    tri = [d for r in rows for d in r.get("triton", {}).values()]
    triton = {"draws": len(tri), "not_segk": sum(d["path"] != "segk" for d in tri),
              "draws_differ_torch": sum(d["differ_torch"] > 0 for d in tri),
              "outputs_differ_torch": sum(d["differ_torch"] for d in tri),
              "outputs_compared": sum(d["outputs"] for d in tri),
              "draws_differ_twin": sum(d.get("differ_twin", 1) > 0 for d in tri)} if args.triton else None
    report = {"device": torch.cuda.get_device_name(), "seconds": round(time.time() - t0, 1), "answers": answers,
              "triton": triton,
              "calls": len(rows), "operands_rebuilt": [sum(rebuilt), len(rebuilt)], "variants": summary,
              "segments": sorted({r["segments"] for r in rows}), "rows": rows}
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "ground_segment_k.json"), "w") as f:
        json.dump(report, f, indent=1)
    write_bits(args.out, rows, torch_bits, diffs)
    print(json.dumps({k: v for k, v in report.items() if k != "rows"}))
    cand = summary.get("candidate", {})
    bad_triton = bool(triton) and (triton["not_segk"] or triton["draws_differ_torch"] or triton["draws_differ_twin"]
                                   or not triton["draws"])
    return 1 if not rows or cand.get("outputs_differ", 1) or not all(rebuilt) or bad_triton else 0


if __name__ == "__main__":
    sys.exit(main())
