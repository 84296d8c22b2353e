"""The cuBLAS-exactness gate (GPU): bitorder.matmul / linear against torch, byte for byte.

Sets: seeded fuzz (the issue's distribution), realistic model layers x tokens,
F.linear with bias, special values. Three fresh draws per shape: narrow, wide
dynamic range, and cancelling (the second half of K negates the first, so the
exact result is 0 and every rounding on the way shows in the output). A case
passes when all draws are byte-identical; fallback calls are counted (they are
cuBLAS's own bytes). Writes gate.json and prints a summary.

With --jobs N > 1 the shuffled cases are dealt (big ones to a few) to N spawned worker processes
sharing the GPU, each checking its share until the common deadline; case i keeps the seed
seed * 7 + i whatever N is. The special values run in the main process afterwards.

    python benchmarks/gate_gemm.py --out DIR [--fuzz N] [--budget S] [--quick] [--jobs N] [--slice A:B]
"""
from __future__ import annotations

import argparse
import hashlib
import json
import multiprocessing
import os
import random
import sys
import time
import traceback
from collections import Counter, defaultdict

# Workers share one GPU: growable segments keep one worker's freed peak from fragmenting its
# cache (on 2026-11-30 one worker held 85 GB and 169 cases of others ran out of memory).
os.environ.setdefault("PYTORCH_CUDA_ALLOC_CONF", "expandable_segments:True")
import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

import bitorder
from bitorder.draws import torch_draw
from bitorder.gemm import api
from bitorder.gemm.shapes import Case, fuzz, realistic


def fingerprint() -> dict:
    """Which tree was imported: a mutant build must show its own hashes here."""
    root = os.path.dirname(bitorder.__file__)
    h = {}
    for rel in ("cublas/profiles/sm90-cublas13.1.json", "gemm/kernels.py", "gemm/launch.py", "cublas/profile.py",
                "gemm/kernels_fp8.py", "gemm/fp8.py", "gemm/kernels_simt.py", "cublas/gemv_rule.py",
                # since 2026-12-03b: a candidate's flag flipped on the device shows here too
                "cublas/profiles/sm90-cublas13.1-simt.json", "cublas/segment_k.py", "gemm/api.py",
                # since 2026-12-04: fp8.run's promoting kernel (FP8_WS) and its tiles' switch
                "gemm/kernels_fp8_gluon.py"):
        with open(os.path.join(root, rel), "rb") as f:
            h[rel] = hashlib.sha256(f.read()).hexdigest()[:16]
    from bitorder.gemm import fp8, launch
    return {"bitorder_file": bitorder.__file__, "sha": h, "fast_launch": launch.FAST, "tiles": launch.TILES, "tma": launch.TMA,
            "fp8_tma": fp8.FP8_TMA, "fp8_persistent": fp8.FP8_PERSISTENT, "fp8_pairs": fp8.FP8_PAIRS,
            "fp8_ws": fp8.FP8_WS, "fp8_ws_tiles": fp8.FP8_WS_TILES,
            "fp8_rowwise_epilogue": os.environ.get("BITORDER_FP8_ROWWISE_EPILOGUE", ""),
            "gemv_rule": os.environ.get("BITORDER_GEMV_RULE", ""), "unverified": os.environ.get("BITORDER_UNVERIFIED", "")}


def operand(case, rows, cols, trans, seed, tid, kind):
    shape = (cols, rows) if trans else (rows, cols)
    if case.batch > 1:
        shape = (case.batch, *shape)
    x = torch_draw(shape, case.dtype, seed, tid, "wide" if kind == "wide" else "narrow")
    return x.transpose(-1, -2) if trans else x


def set_of(case: dict) -> str:
    """The gate set a case came from, read off its group (for a rerun's counts)."""
    g = case["group"]
    return "fuzz" if g.startswith("fuzz") else "bias" if g == "bias" else "realistic"


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
    res["answer"] = answer_fields(p.answer)
    return res


def answer_fields(ans):
    """The heuristic answer's fields a gate keeps (None without an answer)."""
    keys = ("algo_id", "tile", "stages", "split_k", "reduction_scheme", "custom_option")
    return {k: ans[k] for k in keys if k in ans} if ans else None


def shell(case: Case):
    """Uninitialised operands laid out as draw() lays them out (what planning reads: shapes, strides, alignment)."""
    dt = {"fp16": torch.float16, "bf16": torch.bfloat16}[case.dtype]

    def op(rows, cols, trans):
        x = torch.empty(((case.batch,) if case.batch > 1 else ()) + ((cols, rows) if trans else (rows, cols)),
                        dtype=dt, device="cuda")
        return x.transpose(-1, -2) if trans else x
    a, b = op(case.m, case.k, case.layout[0] == "t"), op(case.k, case.n, case.layout[1] == "t")
    return a, b, (torch.empty(case.n, dtype=dt, device="cuda") if case.op == "linear_bias" else None)


def census(cases, out: str, name: str, budget: float = 1e9) -> int:
    """Plan every case (no product runs) and write NAME.json: the paths' counts per set and every case
    not planned "triton" with its path, reason and heuristic answer (where the fallbacks come from)."""
    t0, rows, counts = time.time(), [], defaultdict(Counter)
    for i, (group, case) in enumerate(cases):
        if time.time() - t0 > budget:
            print(f"[census] budget spent after {i} of {len(cases)} cases", flush=True)
            break
        a, b, bias = shell(case)
        p = api.plan(a, b, bias)
        counts[f"{group}:{case.dtype}"][p.path] += 1
        if p.path != "triton":
            rows.append({"case": case.to_dict(), "path": p.path, "reason": p.reason, "answer": answer_fields(p.answer)})
        if case_bytes(case) > BIG:
            del a, b, bias
            torch.cuda.empty_cache()
        if i % 5000 == 0:
            print(f"[census] {i}/{len(cases)} planned, {time.time() - t0:.0f} s", flush=True)
    report = {"name": name, "device": torch.cuda.get_device_name(), "fingerprint": fingerprint(),
              "seconds": round(time.time() - t0, 1), "cases": len(cases),
              "planned": sum(sum(v.values()) for v in counts.values()),
              "paths": {k: dict(v) for k, v in sorted(counts.items())}, "not_triton": rows}
    with open(os.path.join(out, f"{name}.json"), "w") as f:
        json.dump(report, f)
    print(json.dumps({k: report[k] for k in ("planned", "seconds", "paths")}, indent=1))
    print(json.dumps(dict(Counter(f"{r['path']}: {r['reason'][:60]}" for r in rows).most_common()), indent=1))
    return 0


def specials(dtype: str) -> list[dict]:
    """NaN, +-inf, -0.0, subnormals and overflow in inputs and outputs, through the same planner."""
    out = []
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


def check_share(share, seed: int, t0: float, deadline: float, label: str, shared_gpu: bool = False,
                check=None) -> dict:
    """check_case on each (i, set, case) of `share` in order (i: the case's index in the shuffled
    list, so its seed is seed * 7 + i) until the absolute time.time() `deadline`. Prints progress
    every 500 cases of the share. shared_gpu (a worker among others on one GPU): hand the caching
    allocator's blocks back to the driver after a large case, so that one worker's peak (an
    lm_head takes ~10 GB) is not kept from the others. Returns {"results": [(i, result)],
    "errors": [(i, error)], "left": [(i, case)] not started by the deadline, "stats": api.stats()
    for these cases, "bitorder_file": the bitorder this process imported}. check: the per-case function (default check_case; gate_fp8 passes its own)."""
    check = check or check_case
    api.reset_stats()
    results, errors, left = [], [], []
    for j, (i, group, case) in enumerate(share):
        if time.time() > deadline:
            left = [(i, case) for i, _, case in share[j:]]
            break
        try:
            r = check(case, seed * 7 + i)
            r["set"] = group
            results.append((i, r))
        except Exception as e:
            errors.append((i, {"case": case.to_dict(), "error": f"{type(e).__name__}: {e}",
                               "trace": traceback.format_exc()[-800:]}))
        if shared_gpu and (case_bytes(case) > BIG or torch.cuda.memory_reserved() > RESERVE_CAP):
            torch.cuda.empty_cache()
        if j % 500 == 0:
            print(f"[{label}] {j}/{len(share)} cases, {sum(not r['ok'] for _, r in results)} mismatched, "
                  f"{time.time() - t0:.0f} s", flush=True)
    return {"results": results, "errors": errors, "left": left, "stats": api.stats(), "bitorder_file": bitorder.__file__}


def _share_worker(task):
    """Pool entry point (top level, for spawn): check_share on one worker's task tuple."""
    return check_share(*task)


def merge_counts(dicts) -> dict:
    """Sum counter dicts (api.stats() of each worker): numeric values add up, nested dicts merge
    the same way, recursively; any other value keeps the first one seen."""
    out = {}
    for d in dicts:
        for k, v in d.items():
            if isinstance(v, dict):
                prev = out.get(k, {})
                if not isinstance(prev, dict):
                    raise TypeError(f"stats key {k!r} is a dict in one worker and {type(prev).__name__} in another")
                out[k] = merge_counts([prev, v])
            elif _number(v) and _number(out.get(k, 0)):
                out[k] = out.get(k, 0) + v
            else:
                out.setdefault(k, v)
    return out


def _number(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


BIG = 1 << 28  # bytes of operands and output past which a case goes to the few "big" workers
# A worker among others hands cached blocks back past this much: on 2026-11-30, 14 workers each
# kept ~10 GB cached and 1,310 of 45,120 cases ran out of memory.
RESERVE_CAP = 3 << 30


def case_bytes(case: Case) -> int:
    return 2 * case.batch * (case.m * case.k + case.k * case.n + case.m * case.n)


def take_slice(cases: list, spec: str) -> tuple[list, int]:
    """(cases[START:STOP], START) for --slice "START:STOP" (either end may be empty; "" keeps all): a gate
    split over calls, each case keeping the seed index it has in the whole list."""
    if not spec:
        return cases, 0
    a, b = (int(x) if x else None for x in spec.split(":"))
    return cases[a:b], a or 0


def deal(indexed, jobs: int) -> list[list]:
    """Each worker's share: big cases to the first max(1, jobs // 6) workers, the rest dealt
    round-robin to the others, so that a dozen processes never hold many big cases at once
    (twelve did not fit in the H200's 140 GB on 2026-11-29)."""
    n_big = max(1, jobs // 6) if jobs > 1 else 1
    big = [x for x in indexed if case_bytes(x[2]) > BIG]
    small = [x for x in indexed if case_bytes(x[2]) <= BIG]
    others = max(1, jobs - n_big)
    return [big[w::n_big] for w in range(n_big)] + [small[w::others] for w in range(others)]


def check_cases(cases, seed: int, t0: float, deadline: float, jobs: int, name: str, first: int = 0,
                retry_s: float = 0.0, check=None):
    """(results, errors, stats, left) over the shuffled cases, results, errors and the cases not
    started by the deadline (left) in case order.

    jobs 1: in this process. jobs > 1: the cases are dealt (deal()) to spawn processes
    (never fork: CUDA) with the same sys.path, so the same bitorder tree as this one; cases a
    worker could not fit in the shared GPU's memory are run again here, alone, for up to
    retry_s seconds more (an out-of-memory error is not a verdict on the bits)."""
    indexed = [(first + i, group, case) for i, (group, case) in enumerate(cases)]   # global indices: seeds
    if jobs <= 1:
        parts = [check_share(indexed, seed, t0, deadline, name, check=check)]
    else:
        tasks = [(share, seed, t0, deadline, f"{name} w{w}", True, check) for w, share in enumerate(deal(indexed, jobs))]
        with multiprocessing.get_context("spawn").Pool(jobs) as pool:
            parts = pool.map(_share_worker, tasks, chunksize=1)
            pool.close()
            pool.join()
        stray = {p["bitorder_file"] for p in parts} - {bitorder.__file__}
        if stray:
            raise RuntimeError(f"workers imported another bitorder ({sorted(stray)}) than {bitorder.__file__}")
        oom = {i for p in parts for i, e in p["errors"] if e["error"].startswith("OutOfMemoryError")}
        if oom and retry_s > 0:
            again = check_share([x for x in indexed if x[0] in oom], seed, t0, time.time() + retry_s, f"{name} retry",
                                check=check)
            done = {i for i, _ in again["results"]} | {i for i, _ in again["errors"]}
            parts = [dict(p, errors=[(i, e) for i, e in p["errors"] if i not in done]) for p in parts] + [again]
    ordered = lambda key: [x for _, x in sorted((x for p in parts for x in p[key]), key=lambda x: x[0])]  # noqa: E731
    return ordered("results"), ordered("errors"), merge_counts(p["stats"] for p in parts), ordered("left")


# a fallback whose reason says so is at cuBLAS 13.1's own split-K tail drop (h200-facts: reproduced with no Triton in
# it, benchmarks/repro_cublas_tail_drop.py); the fallback target of 0 counts the others
DEFECT = "drops the last"


def fallback_split(results) -> dict:
    """{"all", "cublas_defect", "other"}: the cases sent to cuBLAS, those at its tail-drop defect, and the rest (the
    number the fallback target of 0 is about)."""
    reasons = [r["reason"] for r in results if r["path"] == "cublas"]
    defect = sum(DEFECT in (x or "") for x in reasons)
    return {"all": len(reasons), "cublas_defect": defect, "other": len(reasons) - defect}


def gate_report(name: str, t0: float, planned: int, results, errors, summary, **extra) -> dict:
    """What every gate writes: where and on what it ran, per-set counts (summary: {set: Counter}),
    fallback reasons, mismatches (the first 200) and errors (the first 50; every errored case),
    and the gate's own extra fields. Cases not reached go in extra["not_reached_cases"]."""
    mism = [r for r in results if not r["ok"]]
    return {"name": name, "device": torch.cuda.get_device_name(), "torch": torch.__version__,
            "fingerprint": fingerprint(), "seconds": time.time() - t0, "planned": planned, "run": len(results),
            "summary": {k: dict(v) for k, v in sorted(summary.items())},
            "fallback_reasons": dict(Counter(r["reason"] for r in results if r["path"] == "cublas")),
            "fallbacks": fallback_split(results),
            "fallback_cases": [{k: r.get(k) for k in ("case", "reason", "answer")} for r in results if r["path"] == "cublas"],
            "mismatches": mism[:200], "n_mismatches": len(mism), "errors": errors[:50], "n_errors": len(errors),
            "error_cases": [e["case"] for e in errors], **extra}


def write_report(out: str, report: dict) -> list:
    """report as OUT/NAME.json, its headline printed with the first mismatches; returns those shown."""
    with open(os.path.join(out, f"{report['name']}.json"), "w") as f:
        json.dump(report, f, indent=1)
    print(json.dumps({k: report[k] for k in ("name", "run", "planned", "n_mismatches", "n_errors", "summary",
                                            "fallback_reasons", "fallbacks", "fingerprint") if k in report}, indent=1))
    for m in report["mismatches"][:15]:
        print("MISMATCH", m["case"], m.get("desc"), m.get("answer"), m.get("mismatch"))
    return report["mismatches"]


# --only: a gate's ground, from the same shuffled list
ONLY = {"gemv": lambda c: min(c.m, c.n) == 1, "k1": lambda c: c.k == 1, "dot": lambda c: c.m == 1 and c.n == 1,
        "sn": lambda c: 2 <= c.m <= 16 and c.batch == 1,
        "snb": lambda c: 2 <= c.m <= 16 and c.batch > 1}   # batched gemmSN's ground (the rows path)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--fuzz", type=int, default=20000)
    ap.add_argument("--bias", type=int, default=2000)
    ap.add_argument("--budget", type=float, default=300)
    ap.add_argument("--seed", type=int, default=20261130)
    ap.add_argument("--quick", action="store_true", help="a small sample (for the planted-fault run)")
    ap.add_argument("--name", default="gate")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes checking cases in parallel (spawn)")
    ap.add_argument("--retry-oom", type=float, default=60.0,
                    help="seconds after the budget to rerun, alone, cases that ran out of GPU memory among workers")
    ap.add_argument("--slice", default="", help="START:STOP of the shuffled case list (split a gate over calls)")
    ap.add_argument("--only", choices=tuple(ONLY), help="gemv: only the cases with M == 1 or N == 1 (the gemv "
                    "rule's ground); k1: only those with K == 1; dot: only M == N == 1 (algorithm 14's ground); sn: 2-D with M from 2 to 16 (gemmSN's ground); snb: batched with M from 2 to 16 (the rows path); from the same shuffled list")
    ap.add_argument("--census", action="store_true", help="plan every case, run none: NAME.json lists where "
                    "each case not planned triton goes and why (fast: no product runs)")
    ap.add_argument("--rerun", help="a gate JSON: check its errored, mismatched and not reached cases again "
                                    "(fresh draws), each counted under its own set")
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
    if args.only:
        cases = [(s, c) for s, c in cases if ONLY[args.only](c)]
    cases, first = take_slice(cases, args.slice)
    if args.rerun and os.path.abspath(args.rerun) == os.path.abspath(os.path.join(args.out, f"{args.name}.json")):
        # the report would overwrite the list it reruns (2026-12-02g call 2: two planted faults then ran on nothing)
        sys.exit(f"--rerun {args.rerun} is the file this run writes (--out/--name): name them apart")
    if args.rerun:
        with open(args.rerun) as f:
            old = json.load(f)
        errored = old.get("error_cases") or [e["case"] for e in old.get("errors", [])]   # (older runs kept 50)
        again = errored + [m["case"] for m in old.get("mismatches", [])] + old.get("not_reached_cases", [])
        # once each: an out-of-memory case the retry did not reach is listed as errored and not
        # reached (2026-11-30c: 52 of 340 rerun cases were such duplicates)
        again = list({json.dumps(c, sort_keys=True): c for c in again}.values())
        cases, first = [(set_of(c), Case(**c)) for c in again], len(cases)   # seeds past the case list: fresh
    if args.census:
        return census(cases, args.out, args.name, args.budget)
    t0 = time.time()
    results, errors, case_stats, left = check_cases(cases, args.seed, t0, t0 + args.budget, args.jobs, args.name, first,
                                              args.retry_oom)
    api.reset_stats()
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
        s["desc:add_zero"] += bool(r.get("desc") and "add_zero" in r["desc"])   # empty partitions' +0 merged
    report = gate_report(
        args.name, t0, len(cases), results, errors, summary, slice=args.slice, only=args.only,
        n_not_reached=len(left), not_reached_cases=[c.to_dict() for c in left],
        specials=sp, stats=merge_counts([case_stats, api.stats()]),
        fuzz_shape_stats={
            "misaligned": sum(any(x % 8 for x in (r["case"]["m"], r["case"]["n"], r["case"]["k"])) for r in results if r["set"] == "fuzz"),
            "batched": sum(r["case"]["batch"] > 1 for r in results if r["set"] == "fuzz"),
            "deep_k": sum(r["case"]["k"] > 65536 for r in results if r["set"] == "fuzz"),
            "deep_draws": sum(r["case"]["group"] == "fuzz-deep" for r in results if r["set"] == "fuzz"),
            "layouts": dict(Counter(r["case"]["layout"] for r in results if r["set"] == "fuzz")),
        })
    mism = write_report(args.out, report)
    print("specials identical:", sum(s["ok"] for s in sp), "of", len(sp))
    for e in errors[:5]:
        print("ERROR", e["case"], e["error"])
    return 1 if (mism or errors or not all(s["ok"] for s in sp)) else 0


if __name__ == "__main__":
    sys.exit(main())
