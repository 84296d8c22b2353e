"""Record cuBLAS's SIMT GEMMs that still fall back: dot + reduce (algorithm 14), gemmSN (11), magma (16).

GPU side only; the fits live on the CPU (benchmarks/fit_dot.py for the dot). Writes DIR/probe_simt.json:
  * dot: M = N = 1 calls (torch.matmul of a 1 x K row and a K x 1 column, and F.linear with a
    bias of one element) over a ladder of K: the kernels with their grids, the heuristic answer,
    the output bits of seeded draws (gate_gemm.draw: narrow, wide, cancel; the CPU rebuilds them
    with bitorder.draws.numpy_draw), and for K up to DESIGN_K_MAX the designed experiments of
    bitorder.cublas.gemv_design (one call per experiment: +L / -L and tracers, vector of ones).
  * gemmSN / magma: fresh fuzz shapes (the gate's distribution) whose answer is algorithm 11 or
    16, every one found listed with its answer; for a few of each, the designed experiments
    (the long operand's rows or columns carry them, the other operand is all ones, bits of every
    output column) and the draws' bits of the first rows.

    python benchmarks/probe_simt.py --out DIR [--budget S]      (GPU; scripts/gpu-run OUT simt-probe)
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "src"))

DOT_K = (3, 16, 100, 127, 128, 129, 255, 256, 1000, 4095, 4096, 10000, 63487, 63488, 63489, 65536, 126977,
         200000, 500001, 1048576)
DESIGN_K = (16, 129, 1000, 4096, 70000)
DRAW_SEEDS = (11, 12, 13, 14)
KINDS = ("narrow", "wide", "cancel")
ROWS_KEPT = 8          # draws of a gemmSN / magma shape: the bits of the first rows (and the last) are kept


def _bits(x):
    return x.contiguous().view(__import__("torch").int16).cpu().numpy().ravel().tolist()


def _answer(p):
    return {k: p.answer[k] for k in ("algo_id", "tile", "stages", "split_k", "reduction_scheme", "custom_option",
                                     "swizzle", "cta_swizzling") if k in p.answer} if p.answer else None


def reference(case, a, b, bias):
    """torch's own call for a case (the bytes the probe records)."""
    import torch
    import torch.nn.functional as F
    return torch.matmul(a, b) if case.op in ("mm", "bmm") else F.linear(a, b.transpose(-1, -2), bias)


def _ints(text: str) -> tuple:
    return tuple(int(x) for x in text.split(",") if x.strip())


def dot_records(dtype: str, deadline: float, ks=DOT_K, design_k=DESIGN_K, ops=("mm", "linear_bias")) -> list:
    import torch
    from probe_gemv import kernels_and_launch, probe_case
    from gate_gemm import draw
    from bitorder.gemm import api
    from bitorder.gemm.shapes import Case
    recs = []
    for op in ops:
        for k in ks:
            if time.time() > deadline:
                recs.append({"case": [op, dtype, k], "error": "not reached (budget)"})
                continue
            case = Case(op, dtype, 1, 1, k, 1, "nn", "dot-probe")
            a, b, bias = draw(case, DRAW_SEEDS[0], "narrow")
            rec = {"case": case.to_dict()}
            try:
                rec["answer"] = _answer(api.plan(a, b, None) if op == "mm" else api.plan(a, b, bias))
                call = (lambda: torch.matmul(a, b)) if op == "mm" else (lambda: reference(case, a, b, bias))
                rec["launch"] = kernels_and_launch(call)
                rec["draws"] = {}
                for s in DRAW_SEEDS:
                    for kind in KINDS:
                        a, b, bias = draw(case, s, kind)
                        ref = reference(case, a, b, bias)
                        rec["draws"][f"{s}:{kind}"] = _bits(ref)
                if op == "mm" and k in design_k:
                    d = probe_case(case)
                    rec["design"], rec["bits"] = d["design"], d["bits"]
            except Exception as e:  # noqa: BLE001  (one failing case must not lose the others)
                rec["error"] = f"{type(e).__name__}: {e}"[:400]
            recs.append(rec)
            print(f"[simt-probe] dot {op} {dtype} K={k}: {rec.get('error') or [(x['name'][:40], x['grid']) for x in rec['launch']]}",
                  flush=True)
    return recs


def find_shapes(dtype: str, algos=(11, 16), count=20000, seed=20261201, max_work=6e7) -> list:
    """[(case, answer)]: gate fuzz shapes (batch 1, mm and linear_bias) whose answer is one of algos."""
    import torch
    from bitorder.gemm import api
    from bitorder.gemm.shapes import fuzz
    dt = {"fp16": torch.float16, "bf16": torch.bfloat16}[dtype]
    found = []
    for c in fuzz(dtype, count, seed):
        if c.batch != 1 or min(c.m, c.n) > 64 or c.k * (c.m + c.n) > max_work:
            continue
        a = torch.empty((c.k, c.m) if c.layout[0] == "t" else (c.m, c.k), dtype=dt, device="cuda")
        b = torch.empty((c.n, c.k) if c.layout[1] == "t" else (c.k, c.n), dtype=dt, device="cuda")
        a, b = (a.t() if c.layout[0] == "t" else a), (b.t() if c.layout[1] == "t" else b)
        bias = torch.empty(c.n, dtype=dt, device="cuda") if c.op == "linear_bias" else None
        p = api.plan(a, b, bias)
        if p.answer and int(p.answer["algo_id"]) in algos:
            found.append((c, _answer(p), p.call))
    return found


def design_record(case, deadline: float) -> dict:
    """Designed experiments on a general M x N call: the long side's rows (A, M >= N) or columns (B)
    carry them, the other operand is all ones; bits[e] lists experiment e's output over the short side."""
    import torch
    import torch.nn.functional as F
    from probe_gemv import design_for
    from bitorder.cublas import gemv_design as G
    dt = {"fp16": torch.float16, "bf16": torch.bfloat16}[case.dtype]

    def tensor(rows, cols, trans, fill):
        x = torch.full((cols, rows) if trans else (rows, cols), fill, dtype=dt, device="cuda")
        return x, (x.t() if trans else x)
    rows_side = case.m >= case.n
    if rows_side:
        store, a = tensor(case.m, case.k, case.layout[0] == "t", 0.0)
        _, b = tensor(case.k, case.n, case.layout[1] == "t", 1.0)
        k_first = case.layout[0] == "t"
    else:
        _, a = tensor(case.m, case.k, case.layout[0] == "t", 1.0)
        store, b = tensor(case.k, case.n, case.layout[1] == "t", 0.0)
        k_first = case.layout[1] != "t"
    bias = torch.zeros(case.n, dtype=dt, device="cuda") if case.op == "linear_bias" else None
    n_out = case.m if rows_side else case.n
    pairs, tracers = design_for(case.k, case.dtype)
    r, c, v = G.entries(pairs, tracers, case.dtype)
    bits = []
    for lo in range(0, len(pairs), n_out):
        if time.time() > deadline:
            return {"design_error": "not reached (budget)"}
        sel = (r >= lo) & (r < lo + n_out)
        rr = torch.as_tensor(r[sel] - lo, device="cuda")
        kk = torch.as_tensor(c[sel], device="cuda")
        store[(kk, rr) if k_first else (rr, kk)] = torch.as_tensor(v[sel]).to(dt).to("cuda")
        out = torch.matmul(a, b) if case.op == "mm" else F.linear(a, b.t(), bias)
        o = (out if rows_side else out.t()).contiguous().view(torch.int16).cpu().numpy()
        bits.append(o[:min(n_out, len(pairs) - lo)])
        store[(kk, rr) if k_first else (rr, kk)] = 0
    return {"design": {"experiments": len(pairs), "tracers": int(tracers.shape[1]), "digest": G.digest(pairs, tracers),
                       "rows_side": rows_side},
            "bits": np.concatenate(bits).astype(int).tolist()}


def simt_records(dtype: str, per_algo: int, deadline: float) -> tuple:
    import torch
    from probe_gemv import kernels_and_launch
    from gate_gemm import draw
    found = find_shapes(dtype)
    listed = [{"case": c.to_dict(), "answer": ans, "call": call} for c, ans, call in found]
    print(f"[simt-probe] {dtype}: {len(found)} fuzz shapes answer algo 11 or 16", flush=True)
    recs = []
    for algo in (11, 16):
        mine = sorted((x for x in found if x[1]["algo_id"] == algo), key=lambda x: x[0].k * max(x[0].m, x[0].n))
        pick = [mine[i] for i in sorted({int(j) for j in np.linspace(0, len(mine) - 1, per_algo)})] if mine else []
        for case, ans, call in pick:
            if time.time() > deadline:
                recs.append({"case": case.to_dict(), "error": "not reached (budget)"})
                continue
            rec = {"case": case.to_dict(), "answer": ans, "call": call}
            try:
                a, b, bias = draw(case, DRAW_SEEDS[0], "narrow")
                rec["launch"] = kernels_and_launch(lambda: reference(case, a, b, bias))
                rec["draws"] = {}
                for s in DRAW_SEEDS[:2]:
                    for kind in KINDS:
                        a, b, bias = draw(case, s, kind)
                        ref = reference(case, a, b, bias)
                        rec["draws"][f"{s}:{kind}"] = _bits(torch.cat([ref[:ROWS_KEPT], ref[-1:]]))
                rec.update(design_record(case, deadline))
            except Exception as e:  # noqa: BLE001
                rec["error"] = f"{type(e).__name__}: {e}"[:400]
            torch.cuda.empty_cache()
            recs.append(rec)
            print(f"[simt-probe] algo {algo} {case.op} {dtype} {case.m}x{case.n}x{case.k} {case.layout}: "
                  f"{rec.get('error') or [(x['name'][:50], x['grid'], x['block']) for x in rec['launch']]}", flush=True)
    return listed, recs


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True)
    ap.add_argument("--budget", type=float, default=240)
    ap.add_argument("--per-algo", type=int, default=6)
    ap.add_argument("--dot-k", default="", help="comma-separated K ladder of the dot records (default DOT_K)")
    ap.add_argument("--design-k", default="", help="comma-separated K of the dot records that also run the design")
    ap.add_argument("--dot-ops", default="mm,linear_bias")
    ap.add_argument("--no-simt", action="store_true", help="only the dot records")
    args = ap.parse_args()
    from probe_gemv import require_cuda
    require_cuda()
    import torch
    t0 = time.time()
    out = {"env": {"device": torch.cuda.get_device_name(), "torch": torch.__version__}, "dot": [], "found": [], "simt": []}
    for dt in ("fp16", "bf16"):
        out["dot"] += dot_records(dt, t0 + args.budget * (0.25 if dt == "fp16" else 0.5) * (2 if args.no_simt else 1),
                                  ks=_ints(args.dot_k) or DOT_K, design_k=_ints(args.design_k) or DESIGN_K,
                                  ops=tuple(args.dot_ops.split(",")))
    for dt in (() if args.no_simt else ("fp16", "bf16")):
        try:
            listed, recs = simt_records(dt, args.per_algo, t0 + args.budget * (0.75 if dt == "fp16" else 1.0))
        except Exception as e:  # noqa: BLE001  (the dot records must still be written)
            out.setdefault("errors", []).append(f"{dt}: {type(e).__name__}: {e}"[:400])
            continue
        out["found"] += listed
        out["simt"] += recs
    out["env"]["seconds"] = round(time.time() - t0, 1)
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "probe_simt.json"), "w") as f:
        json.dump(out, f)
    print(f"[simt-probe] wrote probe_simt.json in {out['env']['seconds']} s", flush=True)


if __name__ == "__main__":
    main()
