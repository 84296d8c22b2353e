"""Check the SIMT gemv kernel (bitorder.gemm.simt) against cuBLAS on the calls the gemv probe pinned.

For every algorithm-13 call of the probe's fit (benchmarks/results/2026-11-30d-components/
probe_gemv_fit.json) whose surviving summation orders form one distinct tree, the kernel runs that
order on the call's own shape, dtype and layout, and torch runs the call, on three fresh draws
(narrow, wide-range, cancelling: benchmarks/gate_gemm.draw); a call passes when the outputs are
byte-identical on all three (int16 view, no tolerance). This is the evidence a planner rule for
gemv needs before it may route a call to the kernel; nothing here plans.

    python benchmarks/gemv_check.py --out DIR [--seed S]      (GPU; scripts/gpu-run OUT gemv-check)
    python benchmarks/gemv_check.py --out DIR --rule N        (GPU: the rule table on N fresh shapes)
    python benchmarks/gemv_check.py --list                     (CPU: the calls and orders it would check)

With --rule, the order comes from bitorder.cublas.gemv_rule (the heuristic's custom option and
split_k) instead of the probe's fit, on shapes the rule was not read from: the test a planner
rule must pass before gemv calls may leave cuBLAS.
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
                     product=product, bias=f.get("bias", "acc"), cap=int(f["cap"]) if "cap" in f else None,
                     block=int(f["block"]) if "block" in f else None)


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


def fuzz_cases(count: int, seed: int) -> list:
    """torch.matmul gemv calls on fresh shapes: M = 1 or N = 1, the other output side and K
    log-uniform (1-16384, 1-65536), fp16 and bf16, all four layouts."""
    import math
    import random
    rng = random.Random(seed)

    def lu(hi):
        return max(1, int(math.exp(rng.uniform(0, math.log(hi + 1)))))
    out = []
    for _ in range(count):
        other, k = lu(16384), lu(65536)
        m, n = (1, other) if rng.random() < 0.5 else (other, 1)
        out.append(Case("mm", rng.choice(("fp16", "bf16")), m, n, k, 1, rng.choice(("nn", "nt", "tn", "tt")), "gemv-rule"))
    return out


def run_rule(out_dir: str, seed: int, count: int, budget: float) -> int:
    """The rule table (bitorder.cublas.gemv_rule) on fresh shapes: each call's cuBLASLt answer
    (bitorder's plan) picks the order; calls whose answer has a rule run the kernel against
    torch on three draws; per option, how many were identical. Calls with N == 1 also run as
    F.linear with a bias (torch's addmm, beta = 1; one wide draw) against the order with the bias
    added in fp32 before the rounding, planned from the bias-free answer (bitorder.gemm.api._addmm).
    Calls with M == 1 and N > 1 also run F.linear with a bias on cuBLASLt's bias path (its own
    answer): which bias placement gives torch's bytes, if either (evidence only: nothing plans it).
    Every third call also runs as a batch of 3 (bmm, its own answer)."""
    import collections

    import torch
    import torch.nn.functional as F

    from bitorder.cublas.gemv_rule import order_for
    from bitorder.gemm.api import plan
    from bitorder.gemm.simt import gemv, supported
    from gate_gemm import draw
    per, rows, t0 = collections.defaultdict(collections.Counter), [], time.time()
    for case in fuzz_cases(count, seed):
        if time.time() - t0 > budget:
            per["not reached"]["calls"] += 1
            continue
        a, b, _ = draw(case, seed, "wide")
        ans = plan(a, b).answer
        algo = None if ans is None else int(ans.get("algo_id", -1))
        order = order_for(ans, case.k, case.dtype, outputs=max(case.m, case.n))
        key = f"algo {algo}" if algo != 13 else f"option {ans.get('custom_option')} {case.dtype}"
        if order is None:
            per[key]["no rule"] += 1
            continue
        same = {}
        for d, how in enumerate(("narrow", "wide", "cancel")):
            a, b, _ = draw(case, seed + 17 * d, how)
            same[how] = bool(torch.equal(gemv(a, b, order).view(torch.int16), torch.matmul(a, b).view(torch.int16)))
        ok = all(same.values())
        per[key]["identical" if ok else "differs"] += 1
        row = {"case": case.to_dict(), "answer": ans, "order": str(order), "draws": same, "identical": ok}
        if case.n == 1:   # F.linear with a bias: torch's addmm (beta = 1), the bias in fp32 before the rounding
            a, b, bias = draw(Case("linear_bias", case.dtype, case.m, 1, case.k, 1, case.layout, "gemv-rule"), seed + 51, "wide")
            ref = F.linear(a, b.t(), bias)
            row["bias_identical"] = bool(torch.equal(gemv(a, b, order.replace(bias="acc"), bias=bias).view(torch.int16),
                                                     ref.view(torch.int16)))
            per[key]["bias identical" if row["bias_identical"] else "bias differs"] += 1
        if case.m == 1 and case.n > 1:   # F.linear with a bias on cuBLASLt's bias path: which placement, if any
            a, b, bias = draw(Case("linear_bias", case.dtype, 1, case.n, case.k, 1, case.layout, "gemv-rule"), seed + 53, "wide")
            lt = order_for(plan(a, b, bias).answer, case.k, case.dtype, outputs=case.n)
            ref = F.linear(a, b.t(), bias).view(torch.int16)
            runnable = lt is not None and not supported(lt)
            fits = [pl for pl in ("acc", "out") if runnable and
                    torch.equal(gemv(a, b, lt.replace(bias=pl), bias=bias).view(torch.int16), ref)]
            row["lt_bias"] = "no rule" if lt is None else ",".join(fits) or "neither"
            per[key]["lt bias " + row["lt_bias"]] += 1
        if len(rows) % 3 == 0:           # a batch of 3 (bmm): the batched call's own answer
            bc = Case("bmm", case.dtype, case.m, case.n, case.k, 3, case.layout, "gemv-rule")
            a, b, _ = draw(bc, seed + 54, "wide")
            bo = order_for(plan(a, b).answer, case.k, case.dtype, outputs=max(case.m, case.n))
            row["batch_identical"] = None if bo is None else bool(torch.equal(
                gemv(a, b, bo).view(torch.int16), torch.matmul(a, b).view(torch.int16)))
            per[key]["batch " + {None: "no rule", True: "identical", False: "differs"}[row["batch_identical"]]] += 1
        rows.append(row)
    summary = {"device": torch.cuda.get_device_name(), "seed": seed, "calls": count,
               "per_option": {k: dict(v) for k, v in sorted(per.items())}, "seconds": round(time.time() - t0, 1)}
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, "gemv_rule.json"), "w") as f:
        json.dump({"summary": summary, "rows": rows}, f, indent=1)
    for k, v in sorted(per.items()):
        print(f"{k:<22} {dict(v)}")
    print(json.dumps({k: v for k, v in summary.items() if k != "per_option"}))
    return 0 if not any(v["differs"] or v["bias differs"] or v["batch differs"] for v in per.values()) else 1


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", help="GPU: write gemv_check.json here")
    ap.add_argument("--list", action="store_true", help="CPU: print the calls and orders it would check")
    ap.add_argument("--fit", default=FIT)
    ap.add_argument("--seed", type=int, default=20261201)
    ap.add_argument("--rule", type=int, default=0, metavar="N",
                    help="GPU: instead, N fresh gemv shapes planned by the rule table (bitorder.cublas.gemv_rule)")
    ap.add_argument("--budget", type=float, default=240, help="seconds for --rule")
    a = ap.parse_args()
    if a.rule and a.out:
        return run_rule(a.out, a.seed, a.rule, a.budget)
    if a.list or not a.out:
        for i, case, order, kind in checks(a.fit):
            print(f"#{i:<3} {case.op:<12} {case.dtype} {case.m}x{case.n}x{case.k} {case.layout}  {order}  {kind}")
        return 0
    return run(a.out, a.seed, a.fit)


if __name__ == "__main__":
    sys.exit(main())
