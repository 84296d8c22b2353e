"""The gemv prober: pin the summation order of cuBLAS's SIMT gemv kernels (algorithm 13) with
designed inputs (gemv_design), then turn the records into gemv rule entries.

GPU (`probe_case`): the vector operand is all ones and each output's matrix row is one experiment
(+L and -L that cancel, tracers whose survival says where the pair met); the output bits are
recorded with the kernels torch.profiler saw. A linear_bias case runs one more call whose outputs
are 1 + h (a tie of the output type) plus a bias h: "acc" and "out" placements give other bits.

CPU (`fit`): an order is kept for a record when its tracer bits (gemv_design.predict) equal the
recorded ones and simt.matmul replays the designed rows bytewise (`confirm`); per answer key, the
orders every record keeps make a rule entry (gemv_fit.rules_from).

    bitorder probe gemv --out DIR [--budget S | --want o56s-bf16,... | --cases GATE.json]   (GPU)
    bitorder probe gemv --fit DIR/probe_gemv.json      (CPU: per-record fit, probe_gemv_fit.json)
    bitorder probe gemv-fit DIR/probe_gemv.json --out rules.json [--check]   (CPU: rule entries)
"""
from __future__ import annotations

import argparse
import itertools
import json
import os
import re
import sys
import tempfile
import time

import numpy as np

from ..emulate import simt
from ..emulate.simt import GemvOrder
from ..gemm.shapes import Case
from . import gemv_design as G

# (op, dtype, m, n, k, layout): the 32 batch-1 algorithm-13 calls of the 2026-11-29 survey
# (benchmarks/results/2026-11-30b-gemv-fit), then decode layers y = x W^T (1 token).
SURVEYED = [("mm", "fp16", 67, 1, 3, "tn"), ("mm", "bf16", 45, 1, 203, "nn"), ("mm", "fp16", 2, 1, 19257, "nn"),
            ("mm", "fp16", 1, 200, 8109, "tt"), ("mm", "fp16", 1, 989, 33693, "tn"),
            ("linear_bias", "fp16", 4139, 1, 13872, "tn"), ("mm", "bf16", 3, 1, 11, "tt"),
            ("linear_bias", "fp16", 252, 1, 33113, "tt"), ("linear_bias", "bf16", 3001, 1, 4055, "tn"),
            ("mm", "fp16", 1, 355, 24030, "nt"), ("mm", "fp16", 1, 12, 9, "nn"),
            ("linear_bias", "bf16", 1, 3, 5050, "nt"), ("linear_bias", "bf16", 81, 1, 290, "nt"),
            ("mm", "fp16", 1, 25, 2403, "tn"), ("mm", "fp16", 73, 1, 760, "nn"), ("mm", "fp16", 525, 1, 36569, "nt"),
            ("mm", "fp16", 1, 14151, 11, "nn"), ("linear_bias", "bf16", 246, 1, 31397, "tt"),
            ("linear_bias", "fp16", 2, 1, 182, "nt"), ("mm", "bf16", 1, 945, 27, "nt"),
            ("linear_bias", "fp16", 985, 1, 12977, "nn"), ("linear_bias", "fp16", 2826, 1, 33076, "tt"),
            ("mm", "bf16", 1, 1237, 781, "nn"), ("mm", "bf16", 1, 1831, 2769, "tn"), ("mm", "fp16", 1, 10099, 731, "tt"),
            ("mm", "fp16", 11427, 1, 44, "tn"), ("mm", "fp16", 3158, 1, 240, "tt"), ("mm", "fp16", 1, 61, 56886, "tn"),
            ("mm", "bf16", 2309, 1, 14228, "nt"), ("mm", "bf16", 1, 8686, 38, "nt"), ("mm", "fp16", 1, 5, 14, "tt"),
            ("mm", "fp16", 1, 318, 988, "nn")]
DECODE = [(op, dt, 1, n, k, lay) for n, k in ((4096, 4096), (11008, 4096), (14336, 4096), (4096, 14336), (128256, 4096))
          for dt in ("fp16", "bf16") for op, lay in (("linear", "nt"),)]
DECODE += [("linear_bias", "fp16", 1, 4096, 4096, "nt"), ("linear_bias", "bf16", 1, 4096, 14336, "nt"),
           ("mm", "fp16", 1, 4096, 4096, "nn"), ("mm", "bf16", 1, 11008, 4096, "nn")]
CASES = [Case(op, dt, m, n, k, 1, lay, "gemv-probe") for op, dt, m, n, k, lay in SURVEYED + DECODE]
CONFIRM_ROWS = 256          # rows replayed through simt.matmul when E * K > CONFIRM_WORK
CONFIRM_WORK = 2e7

# The per-record fit's family (`structures`): split spans are ceil(ceil(K / s) / g) * g.
LANES = (1, 2, 4, 8, 16, 32, 64)
CHUNKS = (None, 1, 2, 4, 8, 16, 32, 64, 128)
SPLITS = range(2, 257)
GRANULES = (1, 2, 4, 8, 16, 32, 64, 128, 256, 512)
BLOCKS = (256, 512, 1024)


# -- the candidate orders ---------------------------------------------------------------------------

def kernel_kind(rec: dict) -> str:
    """The gemv kernel's name and template arguments (types shortened), + a reduce kernel after it."""
    names = [k for k in rec["kernels"] if "elementwise_kernel" not in k]
    m = re.search(r"(gemv\w+|gemvx::kernel)<(.*?), cublasGemv", names[0])
    args = [x.strip() for x in m.group(2).split(",")]
    short = {"__half": "h", "__nv_bfloat16": "bf", "float": "f"}
    kind = m.group(1).replace("internal::", "") + "<" + ",".join(short.get(x, x) for x in args) + ">"
    return kind + (" + splitKreduce" if any("splitKreduce" in k for k in names) else "")


def spans(k: int) -> list:
    """None (no split), then every part length below K that a split count and a granule give."""
    out = {-(-(-(-k // s)) // g) * g for s in SPLITS for g in GRANULES}
    return [None] + sorted(s for s in out if s < k)


def structures(k: int, split: bool):
    """Every order considered for one call: split spans only where a reduce kernel ran after the gemv;
    lane chains banked every BLOCKS elements where a part is longer than the block (gemv2T: 512)."""
    for span in (spans(k)[1:] if split else [None]):
        for lanes, chunk, fold in itertools.product(LANES, CHUNKS, simt.FOLDS):
            for merge in (simt.MERGES if span else ("sequential",)):
                for block in (None,) + tuple(b for b in BLOCKS if b < (span or k)):
                    yield GemvOrder(lanes=lanes, chunk=chunk, fold=fold, span=span, merge=merge, block=block)


def signature(o: GemvOrder, k: int) -> tuple:
    """Orders with equal signatures sum the same K indices in the same tree (empty lanes kept)."""
    parts = o.parts(k)
    lanes = tuple(o.lane_of(e - s).tobytes() for s, e in parts)
    used = max(len(set(o.lane_of(e - s).tolist())) for s, e in parts)
    return (tuple(parts), lanes, o.fold if used > 1 else "-", o.merge if len(parts) > 1 else "-")


def settled(orders: list, k: int) -> dict:
    """For each field, the values the surviving orders take (a single value: settled)."""
    out = {f: sorted({str(getattr(o, f)) for o in orders})
           for f in ("span", "lanes", "chunk", "block", "fold", "merge", "product", "bias")}
    out["distinct_trees"] = len({signature(o, k) for o in orders})
    return out


def candidates(k: int, split: int):
    """Every order of the rules' family for a K-long product cut in `split` parts (the answer's
    split_k): lanes 1-64, contiguous with or without the gemvx cap of 64 or in chunks of 1-64."""
    span = -(-k // split) if split > 1 else None
    for lanes, chunk, fold, bias in itertools.product(LANES, CHUNKS[:-1], ("down", "seq"), ("acc", "out")):
        for cap in ((None, 64) if chunk is None else (None,)):
            yield GemvOrder(lanes=lanes, chunk=chunk, cap=cap, span=span, fold=fold, bias=bias)


def design_for(k: int, dtype: str):
    """The case's design: gemv_design.design with the first two part boundaries of every span
    `spans` considers as marks (so every candidate split has pairs straddling its cuts)."""
    sp = spans(k)[1:]
    return G.design(k, dtype, [s - 1 for s in sp] + [2 * s - 1 for s in sp])


# -- GPU side ---------------------------------------------------------------------------------------

def require_cuda():
    """Raise SystemExit(2) with a plain message unless torch sees a CUDA device."""
    try:
        import torch
        ok = bool(torch.cuda.is_available())
    except Exception:  # noqa: BLE001  (no torch at all reads the same)
        ok = False
    if not ok:
        print("probe_gemv: needs a CUDA GPU (torch.cuda.is_available() is False); run it through "
              "scripts/gpu-run OUT gemv-probe, or fit recorded bits on the CPU (bitorder probe gemv-fit "
              "FILE, or --fit FILE)", file=sys.stderr)
        raise SystemExit(2)


def _call(case: Case, device="cuda"):
    """(run, put, op, bias, n_out): the call with a ones vector and a zero matrix laid out as the
    survey's case; put(rows, ks, values) writes output rows' matrix entries; op() is the torch call;
    run() -> the n_out outputs' int16 bits; bias: the zero bias tensor (linear_bias) or None."""
    import torch
    import torch.nn.functional as F
    dt = {"fp16": torch.float16, "bf16": torch.bfloat16}[case.dtype]
    batch = (case.batch,) if case.batch > 1 else ()      # a batch: every entry carries the same design

    def tensor(rows, cols, trans, fill):
        x = torch.full(batch + ((cols, rows) if trans else (rows, cols)), fill, dtype=dt, device=device)
        return x, (x.transpose(-1, -2) if trans else x)
    vec_a = case.m == 1                  # torch A is the vector: experiments in B's columns
    if vec_a:
        _, a = tensor(1, case.k, case.layout[0] == "t", 1.0)
        store, b = tensor(case.k, case.n, case.layout[1] == "t", 0.0)
        along_k_first = case.layout[1] != "t"      # store[k, j] unless transposed
    else:
        store, a = tensor(case.m, case.k, case.layout[0] == "t", 0.0)
        _, b = tensor(case.k, 1, case.layout[1] == "t", 1.0)
        along_k_first = case.layout[0] == "t"      # store[k, i] when transposed
    bias = torch.zeros(case.n, dtype=dt, device=device) if case.op == "linear_bias" else None

    def put(rows, ks, values):
        r = torch.as_tensor(rows, device=device)
        kk = torch.as_tensor(ks, device=device)
        v = torch.as_tensor(values, dtype=torch.float64).to(dt).to(device)
        store[(Ellipsis,) + ((kk, r) if along_k_first else (r, kk))] = v

    def op():
        return F.linear(a, b.transpose(-1, -2), bias) if case.op == "linear_bias" else torch.matmul(a, b)

    def run():
        """Batch entry 0's outputs; unequal entries (the same design in each) are counted in run.unequal."""
        out = op()
        o = (out[..., 0, :] if vec_a else out[..., :, 0]).contiguous().view(torch.int16)
        if batch:
            run.unequal += int((o != o[:1]).any(dim=-1).sum())
            o = o[0]
        return o.cpu().numpy()
    run.unequal = 0
    return run, put, op, bias, (case.n if vec_a else case.m)


def kernels_and_launch(call):
    """[{name, grid, block}] of the kernels one call launched (torch.profiler's trace)."""
    import torch
    from torch.profiler import ProfilerActivity, profile
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        call()
        torch.cuda.synchronize()
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "trace.json")
        prof.export_chrome_trace(path)
        with open(path) as f:
            ev = json.load(f).get("traceEvents", [])
    ks = sorted((e for e in ev if e.get("cat") == "kernel"), key=lambda e: e.get("ts", 0))
    return [{"name": e["name"], "grid": e.get("args", {}).get("grid"), "block": e.get("args", {}).get("block")} for e in ks]


def _record_head(case: Case, pairs, tracers) -> dict:
    return {"case": case.to_dict(), "design": {"experiments": len(pairs), "tracers": tracers.shape[1],
                                               "digest": G.digest(pairs, tracers)}}


def probe_case(case: Case, device="cuda") -> dict:
    """One case's record: the design's digest, the bits of every experiment, the bias call's bits,
    the kernels. The bits contract: bits[e] is the int16 view of output e's value."""
    t0 = time.time()
    pairs, tracers = design_for(case.k, case.dtype)
    r, c, v = G.entries(pairs, tracers, case.dtype)
    run, put, op, bias, n_out = _call(case, device)
    bits = []
    for lo in range(0, len(pairs), n_out):
        sel = (r >= lo) & (r < lo + n_out)
        put(r[sel] - lo, c[sel], v[sel])
        bits.append(run()[:min(n_out, len(pairs) - lo)])
        put(r[sel] - lo, c[sel], np.zeros(int(sel.sum())))      # back to zeros: cheaper than clearing
    rec = {**_record_head(case, pairs, tracers), "bits": np.concatenate(bits).tolist(), "calls": len(bits),
           "bias_bits": None, "batch_entries_unequal": run.unequal}
    if bias is not None:
        h, _ = G.bias_case(case.dtype)
        rows = np.repeat(np.arange(n_out), 2)
        ks = np.tile([0, case.k - 1], n_out)
        put(rows, ks, np.tile([1.0, h], n_out))
        bias.fill_(h)
        rec["bias_bits"] = run().tolist()
    launches = kernels_and_launch(op) if device == "cuda" else []
    rec["kernels"] = [x["name"] for x in launches]
    rec["launch"] = launches
    rec["seconds"] = round(time.time() - t0, 3)
    return rec


def answer_key(ans: dict, dtype: str) -> str:
    """How --want names a call's cuBLASLt answer: "o<custom option>[s]-<dtype>" for algorithm 13
    ("s" when split_k > 1), "a<algo>-<dtype>" otherwise."""
    if ans is None:
        return "none"
    algo = int(ans.get("algo_id", -1))
    if algo != 13:
        return f"a{algo}-{dtype}"
    return f"o{int(ans.get('custom_option', -1))}{'s' if int(ans.get('split_k') or 1) > 1 else ''}-{dtype}"


def _unruled(ans, case) -> bool:
    """An algorithm-13 answer bitorder.cublas.gemv_rule holds no order for (--want unknown)."""
    from .gemv_rule import order_for
    return ans is not None and int(ans.get("algo_id", -1)) == 13 and \
        order_for(ans, case.k, case.dtype, outputs=max(case.m, case.n)) is None


def select_cases(want: list, per_key: int, draws: int, seed: int, max_work: float = 4e7, min_k: int = 16,
                 min_outputs: int = 1) -> list:
    """[(case, answer)]: fresh gemv shapes (gemv_check.fuzz_cases) with K >= min_k (the design needs
    3; the cheapest of 2026-11-30j's algorithm-14 calls had K = 1) and at least min_outputs outputs
    whose cuBLASLt answer (bitorder's plan, as torch asks it) is one of `want`, at most per_key of
    each, cheapest (K x outputs) first. GPU; needs the repository's benchmarks/ (the gate's draws)."""
    # the fuzz and the gate's draws live with the gate scripts, beside the src/ checkout
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "benchmarks"))
    import gemv_check
    from gate_gemm import draw

    from ..gemm.api import plan
    found = {}
    for case in gemv_check.fuzz_cases(draws, seed):
        if case.k * max(case.m, case.n) > max_work or case.k < min_k or max(case.m, case.n) < min_outputs:
            continue
        a, b, _ = draw(case, seed, "narrow")
        ans = plan(a, b).answer
        key = answer_key(ans, case.dtype)
        if key in want or ("unknown" in want and _unruled(ans, case)):
            found.setdefault(key, []).append((case, ans))
    out = []
    for key in [w for w in want if w != "unknown"] + sorted(set(found) - set(want)):
        cs = sorted(found.get(key, []), key=lambda ca: ca[0].k * max(ca[0].m, ca[0].n))[:per_key]
        print(f"[gemv-probe] {key}: {len(found.get(key, []))} fresh shapes, probing {len(cs)}", flush=True)
        out += cs
    return out


def cases_from(path: str) -> list:
    """[(case, answer)] of the algorithm-13 cases a gate JSON sent to cuBLAS ("fallback_cases"; a
    list's entries without an answer are kept too)."""
    with open(path) as f:
        data = json.load(f)
    rows = data.get("fallback_cases", data.get("mismatches", []))
    return [(Case(**r["case"]), r.get("answer")) for r in rows
            if r.get("answer") is None or int(r["answer"].get("algo_id", -1)) == 13]


def run_gpu(out_dir: str, budget: float, limit=None, cases=None) -> int:
    """Probe `cases` ([(case, answer)]; the survey's CASES by default) until `budget` seconds have
    passed and write OUT_DIR/probe_gemv.json; 1 when a case failed."""
    require_cuda()
    import torch
    os.makedirs(out_dir, exist_ok=True)
    t0, recs = time.time(), []
    for i, (case, answer) in enumerate((cases or [(c, None) for c in CASES])[:limit]):
        if time.time() - t0 > budget:
            recs.append({"case": case.to_dict(), "error": "not reached (budget)"})
            continue
        try:
            recs.append(dict(probe_case(case), answer=answer))
        except Exception as e:  # noqa: BLE001  (one failing case must not lose the others)
            recs.append({"case": case.to_dict(), "error": f"{type(e).__name__}: {e}"[:400]})
        torch.cuda.empty_cache()
        r = recs[-1]
        print(f"[gemv-probe] {i:2d} {case.op} {case.dtype} {case.m}x{case.n}x{case.k} {case.layout}: "
              f"{r.get('error') or str(r['calls']) + ' calls, ' + r['kernels'][0][:70]}  ({time.time() - t0:.1f} s)",
              flush=True)
    info = {"device": torch.cuda.get_device_name(), "torch": torch.__version__, "seconds": round(time.time() - t0, 1)}
    with open(os.path.join(out_dir, "probe_gemv.json"), "w") as f:
        json.dump({"env": info, "records": recs}, f)
    print(f"[gemv-probe] wrote {len(recs)} records in {info['seconds']} s", flush=True)
    return 0 if all("error" not in r for r in recs) else 1


# -- a simulated black box: the record cuBLAS would give if it ran `order` --------------------------

def simulate_record(case: Case, order: GemvOrder, kernels=("gemvx::kernel<int,int,h,h,h,f,false,true,false,"
                                                           "false,7,false>(cublasGemvParamsEx<...>, cublasGemv...)",)):
    """probe_case's record with the bits computed by simt.matmul under `order` (tests, CPU)."""
    pairs, tracers = design_for(case.k, case.dtype)
    a = _typed(G.dense_rows(case.k, pairs, tracers, case.dtype), case.dtype)
    ones = _typed(np.ones((case.k, 1)), case.dtype)
    rec = {**_record_head(case, pairs, tracers), "bits": simt.matmul(a, ones, order)[:, 0].view(np.int16).tolist(),
           "bias_bits": None, "kernels": list(kernels)}
    if case.op == "linear_bias":
        rows, h = _bias_rows(case)
        rec["bias_bits"] = simt.matmul(rows, ones, order, bias=np.array([h]))[:, 0].view(np.int16).tolist()
    return rec


def _typed(x, dtype):
    if dtype == "fp16":
        return np.asarray(x, np.float16)
    import ml_dtypes
    return np.asarray(x).astype(ml_dtypes.bfloat16)


def _bias_rows(case_d, n=4):
    k, dtype = (case_d.k, case_d.dtype) if isinstance(case_d, Case) else (case_d["k"], case_d["dtype"])
    h, _ = G.bias_case(dtype)
    rows = np.zeros((n, k))
    rows[:, 0], rows[:, k - 1] = 1.0, h
    return _typed(rows, dtype), h


# -- CPU side: the per-record fit -------------------------------------------------------------------

def tree_survivors(rec: dict, pairs, tracers, obs) -> tuple[list, int]:
    """(orders whose tracer bits equal the recorded masks on every experiment, candidates tried)."""
    k = rec["case"]["k"]
    split = any("splitKreduce" in x for x in rec["kernels"])
    cands = list(structures(k, split))
    want = G.mask_bits(obs, tracers.shape[1])
    groups = {}
    for o in cands:
        groups.setdefault((o.span, o.merge), []).append(o)
    kept = []
    for (span, merge), os_ in groups.items():
        # what the span and the merge decide alone first: one check per group, not per order
        surv, known = G.tracer_bits(GemvOrder(span=span, merge=merge), k, pairs, tracers, lanes_known=False)
        if np.array_equal(surv[known], want[known]):
            kept += os_
    return [o for o in kept if np.array_equal(G.predict(o, k, pairs, tracers), obs)], len(cands)


def confirm(rec: dict, orders: list, pairs, tracers) -> list:
    """The orders x product forms x bias placements whose simt.matmul bytes equal the record's
    (designed rows: all, or CONFIRM_ROWS evenly spaced when E * K > CONFIRM_WORK; the bias call's)."""
    c = rec["case"]
    k, dtype = c["k"], c["dtype"]
    E = len(pairs)
    idx = np.arange(E) if E * k <= CONFIRM_WORK else np.unique(np.linspace(0, E - 1, CONFIRM_ROWS).astype(int))
    a = _typed(G.dense_rows(k, pairs[idx], tracers[idx], dtype), dtype)
    ones = _typed(np.ones((k, 1)), dtype)
    want = np.asarray(rec["bits"], np.int64).astype(np.int16)[idx]
    by_tree, intern = {}, {}
    for o in orders:
        by_tree.setdefault(G.tree_key(o, k, intern), []).append(o)
    biases = ("acc",)
    if rec.get("bias_bits") is not None:
        # a call with 2 or 3 outputs recorded that many bias rows, not 4 (before 2026-12-01e the
        # comparison of 4 with 3 failed every order: option 75's split calls "fit nothing")
        rows, h = _bias_rows(c, n=min(4, len(rec["bias_bits"])))
        got_b = np.asarray(rec["bias_bits"], np.int64).astype(np.int16)[:len(rows)]
        biases = tuple(b for b in simt.BIASES if np.array_equal(
            simt.matmul(rows, ones, GemvOrder(bias=b), bias=np.array([h]))[:, 0].view(np.int16), got_b))
    out = []
    for tree, os_ in by_tree.items():
        for product in simt.PRODUCTS:
            if np.array_equal(simt.matmul(a, ones, os_[0].replace(product=product))[:, 0].view(np.int16), want):
                out += [o.replace(product=product, bias=b) for o in os_ for b in biases]
    return out


def fit_record(rec: dict) -> dict:
    """What one probe record pins: the surviving orders' field values, distinct trees, kernels."""
    c = rec["case"]
    row = {k: c[k] for k in ("op", "dtype", "m", "n", "k", "layout")}
    if "error" in rec:
        return {**row, "error": rec["error"]}
    try:
        row["kind"] = kernel_kind(rec)
    except (AttributeError, IndexError):
        row["kind"] = "not a gemv: " + (rec["kernels"][0][:90] if rec["kernels"] else "no kernel")
        return row
    row["launch"] = [{k: x.get(k) for k in ("grid", "block")} for x in rec.get("launch", [])]
    try:
        _, pairs, tracers, obs = _read(rec)
    except ValueError:
        return {**row, "error": "the design rebuilt here differs from the one the GPU ran"}
    row["experiments"], row["not_tracer_sums"] = len(obs), int((obs < 0).sum())
    alive, tried = tree_survivors(rec, pairs, tracers, obs) if row["not_tracer_sums"] == 0 else ([], 0)
    final = confirm(rec, alive, pairs, tracers)
    intern = {}
    trees = {G.tree_key(o, c["k"], intern) for o in final}
    row.update(candidates=tried, tree_survivors=len(alive), survivors=len(final), trees=len(trees),
               settled=settled(final, c["k"]), examples=[str(o) for o in final[:4]],
               pinned=len(trees) == 1 and len({o.bias for o in final}) == 1)
    return row


def fit(records: list) -> dict:
    """{records: per-record fit_record rows, kinds: per kernel kind the records, whether each is
    pinned (one summation tree left, bias decided) and the field values every record keeps}."""
    rows = []
    for i, rec in enumerate(records):
        rows.append({"i": i, **fit_record(rec)})
        r = rows[-1]
        print(f"[gemv-fit] {i:2d} {r['dtype']} {r['m']}x{r['n']}x{r['k']} {r.get('kind', '')[:60]} "
              f"{r.get('error') or ('pinned' if r.get('pinned') else 'open')} {r.get('settled', '')}", flush=True)
    kinds = {}
    for r in rows:
        if "settled" in r:
            kinds.setdefault(r["kind"], []).append(r)
    summary = {}
    for kind, rs in kinds.items():
        shared = {f: sorted(set.intersection(*(set(r["settled"][f]) for r in rs)))
                  for f in ("chunk", "fold", "merge", "bias")}
        summary[kind] = {"records": [r["i"] for r in rs], "pinned": [r["i"] for r in rs if r["pinned"]],
                         "per_call": {r["i"]: {"shape": f"{r['m']}x{r['n']}x{r['k']}", "lanes": r["settled"]["lanes"],
                                               "chunk": r["settled"]["chunk"], "span": r["settled"]["span"],
                                               "launch": r.get("launch")} for r in rs},
                         "shared": shared}
    return {"records": rows, "kinds": summary}


def _read(rec: dict):
    """(k, pairs, tracers, tracer masks) of a record: its design rebuilt here and checked by digest."""
    c = rec["case"]
    pairs, tracers = design_for(c["k"], c["dtype"])
    if G.digest(pairs, tracers) != rec["design"]["digest"]:
        raise ValueError(f"record {rec.get('id')}: the design rebuilt here differs from the one the GPU ran")
    return c["k"], pairs, tracers, G.decode(rec["bits"], c["dtype"])


def main(argv=None):
    """The GPU probe's command line (`bitorder probe gemv`, scripts/gpu-run OUT gemv-probe) and the
    per-record CPU fit (--fit FILE)."""
    ap = argparse.ArgumentParser(prog="bitorder probe gemv", description=__doc__.splitlines()[0])
    ap.add_argument("--out", help="GPU: write probe_gemv.json here")
    ap.add_argument("--fit", help="CPU: fit a recorded probe_gemv.json (writes probe_gemv_fit.json beside it)")
    ap.add_argument("--budget", type=float, default=240, help="GPU seconds before the remaining cases are skipped")
    ap.add_argument("--limit", type=int, default=None, help="only the first N cases")
    ap.add_argument("--want", default="", help="GPU: instead of the survey's calls, fresh shapes whose answer is one "
                    "of these comma-separated keys (answer_key: o56s-bf16, o11-fp16, a14-fp16, ...; unknown: every "
                    "algorithm-13 answer the rule table holds no order for)")
    ap.add_argument("--per-key", type=int, default=3, help="with --want: shapes per key")
    ap.add_argument("--draws", type=int, default=1500, help="with --want: fresh shapes planned to find them")
    ap.add_argument("--seed", type=int, default=20261205)
    ap.add_argument("--min-k", type=int, default=16, help="with --want: only shapes with K at least this")
    ap.add_argument("--min-outputs", type=int, default=1, help="with --want: only shapes with this many outputs or more")
    ap.add_argument("--write-cases", metavar="FILE", help="with --want: write the shapes found as a gate rerun file "
                    "({\"not_reached_cases\": [...]}, for gate_gemm.py --rerun) and probe nothing")
    ap.add_argument("--cases", help="GPU: instead, the algorithm-13 fallbacks of a gate JSON (batched ones too: every "
                    "batch entry carries the same design)")
    args = ap.parse_args(argv)
    if args.fit:
        with open(args.fit) as f:
            result = fit(json.load(f)["records"])
        with open(os.path.join(os.path.dirname(os.path.abspath(args.fit)), "probe_gemv_fit.json"), "w") as f:
            json.dump(result, f, indent=1)
        return 0
    if not args.out:
        ap.error("--out DIR (GPU run) or --fit FILE (CPU fit)")
    cases = cases_from(args.cases) if args.cases else None
    if args.want:
        require_cuda()
        cases = select_cases([w for w in args.want.split(",") if w], args.per_key, args.draws, args.seed,
                             min_k=args.min_k, min_outputs=args.min_outputs)
        if args.write_cases:
            with open(args.write_cases, "w") as f:
                json.dump({"not_reached_cases": [c.to_dict() for c, _ in cases]}, f, indent=1)
            print(f"[gemv-probe] {len(cases)} cases written to {args.write_cases}", flush=True)
            return 0
    return run_gpu(args.out, args.budget, args.limit, cases)
