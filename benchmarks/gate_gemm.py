"""The cuBLAS-exactness gate (GPU): bitorder.matmul / linear against torch, byte for byte.

Sets: seeded fuzz (the issue's distribution), realistic model layers x tokens,
F.linear with bias, special values. Three fresh draws per shape: narrow, wide
dynamic range, and cancelling (the second half of K negates the first, so the
exact result is 0 and every rounding on the way shows in the output). A case
passes when all draws are byte-identical; fallback calls are counted (they are
cuBLAS's own bytes). Writes gate.json and prints a summary.

    python benchmarks/gate_gemm.py --out DIR [--fuzz N] [--budget S] [--quick]
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import sys
import time
import traceback
from collections import Counter, defaultdict

import torch
import torch.nn.functional as F

import bitorder
from bitorder.draws import torch_draw
from bitorder.gemm import api
from bitorder.gemm.shapes import Case, fuzz, realistic


def fingerprint() -> dict:
    """Which tree was imported: a mutant build must show its own hashes here."""
    root = os.path.dirname(bitorder.__file__)
    h = {}
    for rel in ("cublas/profiles/sm90-cublas13.1.json", "gemm/kernels.py", "gemm/launch.py", "cublas/profile.py"):
        with open(os.path.join(root, rel), "rb") as f:
            h[rel] = hashlib.sha256(f.read()).hexdigest()[:16]
    return {"bitorder_file": bitorder.__file__, "sha": h}


def operand(case, rows, cols, trans, seed, tid, kind):
    shape = (cols, rows) if trans else (rows, cols)
    if case.batch > 1:
        shape = (case.batch, *shape)
    x = torch_draw(shape, case.dtype, seed, tid, "wide" if kind == "wide" else "narrow")
    return x.transpose(-1, -2) if trans else x


def draw(case: Case, seed: int, kind: str):
    a = operand(case, case.m, case.k, case.layout[0] == "t", seed, 1, kind)
    b = operand(case, case.k, case.n, case.layout[1] == "t", seed, 2, kind)
    if kind == "cancel" and case.k >= 2:
        # a's second half negates its first half against the same b rows: an exact zero sum
        h = case.k // 2
        with torch.no_grad():
            a[..., h:2 * h] = -a[..., :h]
            b[..., h:2 * h, :] = b[..., :h, :]
    bias = torch_draw((case.n,), case.dtype, seed, 3, "narrow") if case.op == "linear_bias" else None
    return a, b, bias


def run_pair(case: Case, a, b, bias):
    if case.op in ("mm", "bmm"):
        return bitorder.matmul(a, b), torch.matmul(a, b)
    w = b.transpose(-1, -2)
    return bitorder.linear(a, w, bias), F.linear(a, w, bias)


def bits(x):
    return x.contiguous().view(torch.int16)


def check_case(case: Case, seed: int) -> dict:
    res = {"case": case.to_dict(), "ok": True, "draws": {}}
    for i, kind in enumerate(("narrow", "wide", "cancel")):
        a, b, bias = draw(case, seed + i, kind)
        ours, ref = run_pair(case, a, b, bias)
        same = ours.shape == ref.shape and bool(torch.equal(bits(ours), bits(ref)))
        res["draws"][kind] = same
        if not same:
            res["ok"] = False
            d = (bits(ours) != bits(ref))
            res.setdefault("mismatch", {})[kind] = int(d.sum())
    p = api.plan(*(a, b, bias) if case.op in ("mm", "bmm") else (a, b, bias))
    res["path"], res["reason"] = p.path, p.reason
    res["desc"] = str(p.desc) if p.desc else None
    res["answer"] = {k: p.answer[k] for k in ("algo_id", "tile", "stages", "split_k", "reduction_scheme")} if p.answer else None
    return res


def specials(dtype: str) -> list[dict]:
    """NaN, +-inf, -0.0, subnormals and overflow in inputs and outputs, through the same planner."""
    out = []
    dt = {"fp16": torch.float16, "bf16": torch.bfloat16}[dtype]
    big = 60000.0 if dtype == "fp16" else 3e38
    sub = 2.0 ** -20 if dtype == "fp16" else 2.0 ** -130
    for (m, n, k) in ((64, 64, 512), (8, 4096, 8192), (777, 513, 1999), (9, 256, 4096)):
        a = torch_draw((m, k), dtype, 7, 1, "narrow")
        b = torch_draw((k, n), dtype, 7, 2, "narrow")
        a[0, 0] = float("nan"); a[1, 1] = float("inf"); a[2, 2] = -float("inf"); a[3, 3] = -0.0
        a[4, :16] = sub; a[5, :] = big; b[:, 0] = big  # row 5 x col 0 overflows the output type
        b[3, 1] = 0.0
        a[6 % m, :] = -0.0
        for kind, (x, y) in {"mm": (a, b), "mm_t": (a, b.t().contiguous().t())}.items():
            ours, ref = bitorder.matmul(x, y), torch.matmul(x, y)
            out.append({"shape": [m, n, k], "dtype": dtype, "layout": kind,
                        "ok": bool(torch.equal(bits(ours), bits(ref))), "path": api.plan(x, y).path})
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--fuzz", type=int, default=20000)
    ap.add_argument("--bias", type=int, default=2000)
    ap.add_argument("--budget", type=float, default=300)
    ap.add_argument("--seed", type=int, default=20261130)
    ap.add_argument("--quick", action="store_true", help="a small sample (for the planted-fault run)")
    ap.add_argument("--name", default="gate")
    args = ap.parse_args()
    if args.quick:
        args.fuzz, args.bias = 300, 100
    cases = []
    for dt in ("fp16", "bf16"):
        cases += [("realistic", c) for c in realistic(dt, op="linear")]
        cases += [("fuzz", c) for c in fuzz(dt, args.fuzz, args.seed + (dt == "bf16"), max_elements=1 << 28)]
        bias_cases = fuzz(dt, args.bias, args.seed + 7 + (dt == "bf16"), batched_fraction=0, max_elements=1 << 28)
        cases += [("bias", Case("linear_bias", dt, c.m, c.n, c.k, 1, c.layout, "bias")) for c in bias_cases]
    random.Random(args.seed).shuffle(cases)
    if args.quick:
        cases = cases[:600]
    api.reset_stats()
    t0 = time.time()
    results, errors = [], []
    for i, (group, case) in enumerate(cases):
        if time.time() - t0 > args.budget:
            break
        try:
            r = check_case(case, args.seed * 7 + i)
            r["set"] = group
            results.append(r)
        except Exception as e:
            errors.append({"case": case.to_dict(), "error": f"{type(e).__name__}: {e}", "trace": traceback.format_exc()[-800:]})
        if i % 500 == 0:
            print(f"[{args.name}] {i}/{len(cases)} cases, {sum(not r['ok'] for r in results)} mismatched, "
                  f"{time.time() - t0:.0f} s", flush=True)
    try:
        sp = specials("fp16") + specials("bf16")
    except Exception as e:
        sp = [{"ok": False, "error": f"{type(e).__name__}: {e}"}]
    summary = defaultdict(Counter)
    for r in results:
        s = summary[f"{r['set']}:{r['case']['dtype']}"]
        s["cases"] += 1
        s["identical"] += r["ok"]
        s[f"path:{r['path']}"] += 1
    mism = [r for r in results if not r["ok"]]
    report = {
        "name": args.name, "device": torch.cuda.get_device_name(), "torch": torch.__version__,
        "fingerprint": fingerprint(), "seconds": time.time() - t0, "planned": len(cases), "run": len(results),
        "summary": {k: dict(v) for k, v in summary.items()},
        "fallback_reasons": dict(Counter(r["reason"] for r in results if r["path"] == "cublas")),
        "mismatches": mism[:200], "n_mismatches": len(mism), "errors": errors[:50], "n_errors": len(errors),
        "specials": sp, "stats": api.stats(),
        "fuzz_shape_stats": {
            "misaligned": sum(any(x % 8 for x in (r["case"]["m"], r["case"]["n"], r["case"]["k"])) for r in results if r["set"] == "fuzz"),
            "batched": sum(r["case"]["batch"] > 1 for r in results if r["set"] == "fuzz"),
            "deep_k": sum(r["case"]["k"] > 65536 for r in results if r["set"] == "fuzz"),
            "layouts": dict(Counter(r["case"]["layout"] for r in results if r["set"] == "fuzz")),
        },
    }
    with open(os.path.join(args.out, f"{args.name}.json"), "w") as f:
        json.dump(report, f, indent=1)
    print(json.dumps({k: report[k] for k in ("name", "run", "planned", "n_mismatches", "n_errors", "summary",
                                            "fallback_reasons", "fingerprint")}, indent=1))
    print("specials identical:", sum(s["ok"] for s in sp), "of", len(sp))
    for m in mism[:15]:
        print("MISMATCH", m["case"], m.get("desc"), m.get("answer"), m.get("mismatch"))
    for e in errors[:5]:
        print("ERROR", e["case"], e["error"])
    return 1 if (mism or errors or not all(s["ok"] for s in sp)) else 0


if __name__ == "__main__":
    sys.exit(main())
