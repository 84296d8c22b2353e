"""The fp8 gate (issue 6, GPU): bitorder.scaled_mm against torch._scaled_mm, byte for byte.

Per (use_fast_accum, out_dtype) pair: --fuzz shapes with the fp16/bf16 fuzz's rules as far as
torch._scaled_mm allows them (M log-uniform in [1, 16384] with a quarter not a multiple of 8;
N and K log-uniform, K to 65536 and 6% to 2^20, both multiples of 16 as torch requires; a is
row-major, b column-major, the only layout cuBLASLt takes), tensor-wise scales that are not
powers of two, a bias on a third of the bf16/fp16 cases, a row-wise share; plus the realistic
layers x tokens whose N and K are multiples of 16. Three draws per case (narrow, wide,
cancelling), compared as integers. The gate runs scaled_mm's default path (the fp8 entries are
verified since its 2026-12-04 run; until then it set BITORDER_UNVERIFIED=1, as --candidates still
does for a candidate under test). Split-K answers are counted per path as split:triton /
split:cublas, and split:identical. Writes NAME.json.

    python benchmarks/gate_fp8.py --out DIR [--fuzz 10000] [--jobs N] [--budget S] [--quick] [--slice A:B]
        [--accum both|slow|fast] [--max-m M] [--ws-tiles-only] [--ws-persistent-only] [--ws-cost-changed]

--accum slow|fast keeps one mode's cases (use_fast_accum False or True), before the slice.
--slice A:B checks cases A to B of the shuffled list (the same seeds as a whole run), so the 63,312
cases of the issue's gate can be split over device calls and their JSONs added up.
"""
from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections import Counter, defaultdict

import torch  # noqa: E402

import bitorder  # noqa: E402
from bitorder.draws import torch_draw  # noqa: E402
from bitorder.gemm import fp8  # noqa: E402
from bitorder.gemm.shapes import FP8Case, _log_uniform, realistic  # noqa: E402
from gate_gemm import check_cases, gate_report, take_slice, write_report  # noqa: E402

OUT = {"bf16": torch.bfloat16, "fp16": torch.float16, "fp32": torch.float32}
PAIRS = [(fast, out) for fast in (False, True) for out in ("bf16", "fp16", "fp32")]


def fuzz(count: int, fast: bool, out: str, seed: int, max_elements: int = 1 << 28, max_mn: int = 16384,
         max_k: int = 65536, deep_k: int = 1 << 20) -> list[FP8Case]:
    """The fp8 fuzz for one (use_fast_accum, out_dtype) pair (see the module docstring; the twin
    gate passes smaller bounds)."""
    rng = random.Random(seed)
    cases = []
    while len(cases) < count:
        deep = rng.random() < 0.06
        misaligned = rng.random() < 0.25
        while True:
            m = _log_uniform(rng, 1, max_mn)
            if not misaligned:
                m = max(8, (m + 7) // 8 * 8)
            n = max(16, _log_uniform(rng, 1, max_mn) // 16 * 16)
            k = max(16, _log_uniform(rng, 1, deep_k if deep else max_k) // 16 * 16)
            if m * k + k * n + m * n <= max_elements:
                break
        scaling = "row" if rng.random() < 0.1 else "tensor"
        bias = out != "fp32" and rng.random() < 1 / 3
        cases.append(FP8Case(m, n, k, fast, out, scaling, bias, "fuzz-deep" if deep else "fuzz"))
    return cases


def realistic_cases(fast: bool, out: str) -> list[FP8Case]:
    return [FP8Case(c.m, c.n, c.k, fast, out, "tensor", False, c.group) for c in realistic("bf16", op="linear")
            if c.n % 16 == 0 and c.k % 16 == 0]


def draw(case: FP8Case, seed: int, kind: str):
    a = torch_draw((case.m, case.k), "e4m3", seed, 1, "wide" if kind == "wide" else "narrow")
    w = torch_draw((case.n, case.k), "e4m3", seed, 2, "wide" if kind == "wide" else "narrow")
    if kind == "cancel" and case.k >= 32:
        h = case.k // 2 // 16 * 16
        a[:, h:2 * h] = (-a[:, :h].float()).to(a.dtype)   # exact: negation is exact in e4m3
        w[:, h:2 * h] = w[:, :h]
    if case.scaling == "tensor":
        sa = torch.tensor(0.37 + (seed % 7) / 10, device="cuda")
        sb = torch.tensor(1.7000001, device="cuda")
    else:
        g = torch.Generator(device="cuda").manual_seed(seed)
        sa = torch.rand((case.m, 1), device="cuda", generator=g) + 0.3
        sb = torch.rand((1, case.n), device="cuda", generator=g) + 0.3
    bias = torch_draw((case.n,), case.out, seed, 3, "narrow") if case.bias else None
    return a, w.t(), sa, sb, bias


def bits(x):
    return x.contiguous().view({2: torch.int16, 4: torch.int32}[x.element_size()])


def check_case(case: FP8Case, seed: int) -> dict:
    res = {"case": case.to_dict(), "ok": True, "draws": {}}
    for i, kind in enumerate(("narrow", "wide", "cancel")):
        a, b, sa, sb, bias = draw(case, seed + i, kind)
        kw = dict(bias=bias, out_dtype=OUT[case.out], use_fast_accum=case.fast_accum)
        try:
            ref = torch._scaled_mm(a, b, sa, sb, **kw)
        except RuntimeError as e:   # a call torch itself rejects is no verdict on bitorder
            res.update(ok=True, torch_rejects=str(e)[:200], path="torch rejects", reason="")
            return res
        ours = bitorder.scaled_mm(a, b, sa, sb, **kw)
        same = ours.shape == ref.shape and bool(torch.equal(bits(ours), bits(ref)))
        res["draws"][kind] = same
        if not same:
            res["ok"] = False
            res.setdefault("mismatch", {})[kind] = int((bits(ours) != bits(ref)).sum())
    p = fp8.plan(a, b, sa, sb, bias, OUT[case.out], case.fast_accum)
    res["path"], res["reason"] = p.path, p.reason
    res["desc"] = str(p.desc) if p.desc else None
    res["answer"] = {k: p.answer[k] for k in ("algo_id", "tile", "stages", "split_k", "reduction_scheme")} \
        if p.answer else None
    return res


def build(args) -> list:
    cases = []
    for j, (fast, out) in enumerate(PAIRS):
        cases += [("realistic", c) for c in realistic_cases(fast, out)]
        cases += [("fuzz", c) for c in fuzz(args.fuzz, fast, out, args.seed + j)]
    random.Random(args.seed).shuffle(cases)
    return cases


def select(cases: list, accum: str = "both", max_m: int = 0, ws_tiles_only: bool = False,
           ws_persistent_only: bool = False, ws_cost_changed: bool = False) -> list:
    """The (set, case) pairs a partial gate keeps, in order: one accumulation mode ("slow" / "fast"), M at most
    max_m, (ws_tiles_only) those fp8.ws_tile names a tile for on the H200's 132 SMs: where BITORDER_FP8_WS_TILES
    changes fp8.run's kernel or tile (elsewhere it takes the 2026-12-04 gate's path), and (ws_persistent_only)
    those whose tile is persistent, and (ws_cost_changed) those whose tile fp8.WS_PROMOTING_COST changes."""
    if accum != "both":
        cases = [c for c in cases if c[1].fast_accum == (accum == "fast")]
    if max_m:
        cases = [c for c in cases if c[1].m <= max_m]
    from bitorder.gemm import fp8
    if ws_tiles_only or ws_persistent_only:
        tiles = [(c, fp8.ws_tile(c[1].m, c[1].n, not c[1].fast_accum, 132, c[1].k)) for c in cases]
        cases = [c for c, t in tiles if t is not None and (t[3] or not ws_persistent_only)]
    if ws_cost_changed:
        cases = [c for c in cases if not c[1].fast_accum
                 and fp8.ws_tile(c[1].m, c[1].n, True, 132, c[1].k) != fp8.ws_tile(c[1].m, c[1].n, True, 132)]
    return cases


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--fuzz", type=int, default=10000, help="fuzz shapes per (use_fast_accum, out_dtype) pair")
    ap.add_argument("--budget", type=float, default=300)
    ap.add_argument("--seed", type=int, default=20261201)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--retry-oom", type=float, default=60.0)
    ap.add_argument("--quick", action="store_true", help="a small sample (the planted-fault run)")
    ap.add_argument("--name", default="gate_fp8")
    ap.add_argument("--slice", default="", help="START:STOP of the shuffled case list (a gate split over calls)")
    ap.add_argument("--accum", choices=("both", "slow", "fast"), default="both",
                    help="only the use_fast_accum=False (slow) or =True (fast) cases, before --slice: the half a "
                         "change to one mode's kernel needs")
    ap.add_argument("--max-m", type=int, default=0, help="only cases with M at most this, before --slice")
    ap.add_argument("--candidates", action="store_true", help="BITORDER_UNVERIFIED=1: profile candidates plan too")
    ap.add_argument("--ws-tiles-only", action="store_true",
                    help="only cases fp8.ws_tile names a tile for on the H200's 132 SMs, before --slice: what "
                         "BITORDER_FP8_WS_TILES changes (elsewhere fp8.run takes the path the 2026-12-04 gate ran)")
    ap.add_argument("--ws-persistent-only", action="store_true",
                    help="only cases whose fp8.ws_tile is the persistent kernel, before --slice")
    ap.add_argument("--ws-cost-changed", action="store_true",
                    help="only promoting cases whose tile fp8.WS_PROMOTING_COST changes, before --slice")
    args = ap.parse_args()
    if args.candidates:
        os.environ["BITORDER_UNVERIFIED"] = "1"   # read per call; spawned workers inherit it
    if args.quick:
        args.fuzz = 50
    cases = build(args)
    if args.quick:
        cases = cases[:400]
    cases = select(cases, args.accum, args.max_m, args.ws_tiles_only, args.ws_persistent_only, args.ws_cost_changed)
    cases, first = take_slice(cases, args.slice)
    t0 = time.time()
    results, errors, stats, left = check_cases(cases, args.seed, t0, t0 + args.budget, args.jobs, args.name,
                                               first, retry_s=args.retry_oom, check=check_case)
    summary = defaultdict(Counter)
    for r in results:
        c = r["case"]
        s = summary[f"{r['set']}:{'fast' if c['fast_accum'] else 'slow'}:{c['out']}"]
        s["cases"] += 1
        s["identical"] += r["ok"] and "torch_rejects" not in r
        s[f"path:{r['path']}"] += 1
        # per scaling too: the 2026-11-30c gate listed only 200 of 1,891 mismatches (all row-wise)
        s[f"{c['scaling']}:cases"] += 1
        s[f"{c['scaling']}:identical"] += r["ok"] and "torch_rejects" not in r
        if (r.get("answer") or {}).get("split_k", 1) > 1:   # split-K answers: the split path's candidate
            s[f"split:{r['path']}"] += 1
            s["split:identical"] += r["ok"] and "torch_rejects" not in r
    report = gate_report(args.name, t0, len(cases), results, errors, summary, stats=stats, n_not_reached=len(left),
                         slice=args.slice,
                         torch_rejects=dict(Counter(r["torch_rejects"][:80] for r in results if "torch_rejects" in r)))
    mism = write_report(args.out, report)
    return 1 if (mism or errors) else 0


if __name__ == "__main__":
    sys.exit(main())
