"""The prober's GPU side: survey what cuBLAS does for a sample of calls.

For each case: the kernels torch's call launches, cuBLASLt's heuristic answers for
the query that mirrors the call, whether executing the top answer reproduces
torch's bytes, whether the plain Triton chain does, sampled output bits for
seeded draws (the CPU rebuilds the operands and tests descriptors offline), and
+L/-L/r walks along K. Writes one JSON line per case.

    bitorder probe survey --out DIR --budget 300     (or python -m bitorder.cublas.survey ...)
    bitorder probe survey --fp8 --out DIR            torch._scaled_mm split-K calls (survey_fp8.py)
"""
from __future__ import annotations

import argparse
import gzip
import json
import os
import random
import sys
import time
import traceback

# cuBLASLt reads its log settings when it loads: set them before torch does.
os.environ.setdefault("CUBLASLT_LOG_LEVEL", "2")
os.environ.setdefault("CUBLASLT_LOG_FILE", "/tmp/bitorder-cublaslt.log")

import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

from . import lt, ltlog, profiling, torch_call, walks  # noqa: E402
from ..draws import torch_draw  # noqa: E402
from ..gemm import launch  # noqa: E402
from ..gemm.shapes import Case, fuzz, realistic  # noqa: E402

TID_A, TID_B, TID_BIAS = 1, 2, 3


def operands(case: Case, seed: int, kind: str):
    def one(rows, cols, trans, tid):
        shape = (cols, rows) if trans else (rows, cols)
        if case.batch > 1:
            shape = (case.batch, *shape)
        x = torch_draw(shape, case.dtype, seed, tid, kind)
        return x.transpose(-1, -2) if trans else x
    a = one(case.m, case.k, case.layout[0] == "t", TID_A)
    b = one(case.k, case.n, case.layout[1] == "t", TID_B)
    bias = torch_draw((case.n,), case.dtype, seed, TID_BIAS, kind) if case.op == "linear_bias" else None
    return a, b, bias


def torch_op(case: Case, a, b, bias):
    if case.op in ("mm", "bmm"):
        return torch.matmul(a, b)
    return F.linear(a, b.transpose(-1, -2), bias)


def as_bits(x):
    return x.contiguous().view(torch.int16 if x.element_size() == 2 else torch.int32)


def same(x, y) -> bool:
    return x.shape == y.shape and bool(torch.equal(as_bits(x), as_bits(y)))


def samples(case: Case, out):
    o = out if out.dim() == 3 else out.unsqueeze(0)
    rows = sorted({0, case.m // 2, case.m - 1})
    cols = sorted(set(range(min(case.n, 24))) | set(range(max(0, case.n - 8), case.n)))
    bat = sorted({0, case.batch - 1})
    bits = as_bits(o[bat][:, rows][:, :, cols]).cpu().tolist()
    return {"batches": bat, "rows": rows, "cols": cols, "bits": bits}


def walk_box(case: Case, use_rows: bool):
    """Pattern rows go into A's rows (or B's columns); the other operand is ones."""
    dt = {"fp16": torch.float16, "bf16": torch.bfloat16}[case.dtype]

    def build(rows, cols, trans):
        x = torch.zeros((cols, rows) if trans else (rows, cols), dtype=dt, device="cuda")
        return x.t() if trans else x

    a = build(case.m, case.k, case.layout[0] == "t")
    b = build(case.k, case.n, case.layout[1] == "t")
    bias = torch.zeros(case.n, dtype=dt, device="cuda") if case.op == "linear_bias" else None

    def box(rows_np):
        r = torch.from_numpy(rows_np).to(dt).cuda()
        a.zero_(), b.zero_()
        if use_rows:
            b.fill_(1)
            a[: r.shape[0]] = r
        else:
            a.fill_(1)
            b[:, : r.shape[0]] = r.t()
        out = torch_op(case, a, b, bias)
        return (out[: r.shape[0], 0] if use_rows else out[0, : r.shape[0]]).double().cpu().numpy()
    return box, (case.m if use_rows else case.n)


LOG = ltlog.LtLog()
WALK_ALL = False


def attempt(rec: dict, key: str, fn):
    """rec[key] = fn(), or the error: one failing instrument must not lose the case."""
    try:
        rec[key] = fn()
    except Exception as e:
        rec[key + "_error"] = f"{type(e).__name__}: {e}"[:400]
        rec.setdefault("trace", traceback.format_exc()[-1200:])


def survey_case(case: Case, seed: int) -> tuple[dict, list]:
    from ..desc import GEMMDesc

    rec = {"case": case.to_dict(), "seed": seed}
    a, b, bias = operands(case, seed, "narrow")
    LOG.new()
    out = torch_op(case, a, b, bias)
    torch.cuda.synchronize()
    d_ptr = "0X%X" % out.data_ptr()
    rec["ran"] = [dict(ltlog.algo_key(p["algo"]), api=p["api"], workspace=p.get("workSpaceSizeInBytes"))
                  for p in LOG.new() if p.get("D") == d_ptr]
    calls = [lambda: torch_op(case, a, b, bias)]
    rec["samples_narrow"] = samples(case, out)
    stream = torch.cuda.current_stream().cuda_stream
    bias_ptr = bias.data_ptr() if bias is not None else 0
    q = torch_call.lt_query(a, b, out, bias)
    rec["query"] = dict(q.__dict__)
    attempt(rec, "lt", lambda: lt.heuristic(q, 3))
    answers = rec.pop("lt", [])
    rec["lt"] = [x.to_dict() for x in answers]
    attempt(rec, "lt_no_reduced",
            lambda: [x.to_dict() for x in lt.heuristic(torch_call.lt_query(a, b, out, bias, reduced_precision=False), 1)])
    if answers:
        lt_out = torch.empty_like(out)

        def lt_call():
            lt.execute(q, answers[0], b.data_ptr(), a.data_ptr(), lt_out.data_ptr(), bias_ptr, stream)

        def lt_match():
            lt_call()
            torch.cuda.synchronize()
            return same(lt_out, out)
        attempt(rec, "lt_match", lt_match)
        if "lt_match" in rec:
            calls.append(lt_call)
    epi = ("bias_acc", "round") if bias is not None else ("round",)
    plain = GEMMDesc("plain", case.dtype, case.k, "wgmma", 16, epilogue=epi)
    attempt(rec, "plain_match", lambda: same(launch.run(a, b, plain, bias), out))

    def wide():
        aw, bw, biasw = operands(case, seed + 1, "wide")
        return samples(case, torch_op(case, aw, bw, biasw))
    attempt(rec, "samples_wide", wide)
    if case.batch == 1 and (case.flops <= 4e9 or WALK_ALL):
        use_rows = case.m >= 8 or case.m >= case.n
        box, cap = walk_box(case, use_rows)
        pos = walks.walk_positions(case.k, max(256, cap * 24))
        attempt(rec, "walk_small", lambda: walks.pair_walk(box, case.k, pos, walks.R_SMALL, cap).runs())
        attempt(rec, "walk_edge", lambda: walks.pair_walk(box, case.k, pos, walks.R_EDGE, cap).runs())
    return rec, calls


def main(argv=None):
    ap = argparse.ArgumentParser(prog="bitorder probe survey")
    ap.add_argument("--out", required=True)
    ap.add_argument("--budget", type=float, default=300)
    ap.add_argument("--fuzz", type=int, default=600)
    ap.add_argument("--seed", type=int, default=20261129)
    ap.add_argument("--cases", help="a gate JSON: survey its mismatching cases instead of a fresh sample")
    ap.add_argument("--name", default="survey")
    ap.add_argument("--fp8", action="store_true", help="torch._scaled_mm e4m3 calls that cuBLASLt splits (fp8 split-K)")
    ap.add_argument("--want", type=int, default=400, help="--fp8: how many split-K cases to keep from the fuzz")
    ap.add_argument("--list-cases", action="store_true",
                    help="write the planned case list (NAME-cases.json) and stop: no GPU needed")
    args = ap.parse_args(argv)
    global WALK_ALL
    WALK_ALL = bool(args.cases)
    os.makedirs(args.out, exist_ok=True)
    cases = []
    if args.fp8:
        return main_fp8(args)
    if args.cases:
        with open(args.cases) as f:
            cases = [Case(**m["case"]) for m in json.load(f)["mismatches"]]
    else:
        for dt in ("fp16", "bf16"):
            cases += fuzz(dt, args.fuzz, args.seed + (dt == "bf16"), max_elements=1 << 29)
            cases += random.Random(args.seed).sample(realistic(dt), 120)
        random.Random(args.seed).shuffle(cases)
    if args.list_cases:
        return _write_cases(args, cases)
    from .. import env
    info = env.summary()
    info.update(preferred_blas=str(torch.backends.cuda.preferred_blas_library()),
                fp16_reduced=torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction,
                bf16_reduced=torch.backends.cuda.matmul.allow_bf16_reduced_precision_reduction,
                cublas_workspace_config=os.environ.get("CUBLAS_WORKSPACE_CONFIG"),
                cublaslt_workspace_size=os.environ.get("CUBLASLT_WORKSPACE_SIZE"),
                lt_version=lt._lt().get_version(), cases_planned=len(cases), lt_log=LOG.path)
    with open(os.path.join(args.out, f"{args.name}-env.json"), "w") as f:
        json.dump(info, f, indent=1)
    print(info, flush=True)
    t0 = time.time()
    path = os.path.join(args.out, f"{args.name}.jsonl.gz")
    done, errors = record_all(path, cases, lambda i, case: survey_case(case, args.seed * 1000 + i), t0, args.budget)
    print(f"[survey] wrote {path}: {done} cases, {errors} errors of {len(cases)} planned", flush=True)


def record_all(path: str, cases, survey_one, t0: float, budget: float) -> tuple[int, int]:
    """Survey each case (survey_one(i, case) -> (record, calls)) until t0 + budget, writing the
    records to the gzipped JSONL `path` 25 at a time with the kernels each record's calls launched
    (the first call's as "kernels", a second's as "lt_kernels"); a case that raises is written as
    an error record. Returns (records written, errors)."""
    done = errors = 0
    with gzip.open(path, "wt") as f:
        pending = []
        for i, case in enumerate(cases):
            if time.time() - t0 > budget:
                break
            try:
                pending.append(survey_one(i, case))
            except Exception as e:  # noqa: BLE001  (recorded: the survey goes on)
                errors += 1
                f.write(json.dumps({"case": case.to_dict(), "error": f"{type(e).__name__}: {e}",
                                    "trace": traceback.format_exc()[-1500:]}) + "\n")
            if len(pending) >= 25 or i == len(cases) - 1:
                names = profiling.kernels_per_call([c for _, cs in pending for c in cs])
                j = 0
                for rec, cs in pending:
                    rec["kernels"] = names[j]
                    if len(cs) > 1:
                        rec["lt_kernels"] = names[j + 1]
                    j += len(cs)
                    f.write(json.dumps(rec) + "\n")
                    done += 1
                pending = []
                f.flush()
                print(f"[survey] {done} cases, {errors} errors, {time.time() - t0:.0f} s", flush=True)
        for rec, _ in pending:
            f.write(json.dumps(rec) + "\n")
            done += 1
    return done, errors


def _write_cases(args, cases) -> int:
    path = os.path.join(args.out, f"{args.name}-cases.json")
    with open(path, "w") as f:
        json.dump([c.to_dict() for c in cases], f)
    print(f"[survey] {len(cases)} cases planned: {path}", flush=True)
    return 0


def main_fp8(args) -> int:
    """--fp8: build the split-K fuzz (or read --cases: a JSON list of FP8Case dicts, or a gate's
    {"mismatches": [{"case": ...}]}), keep the cases the mirrored query splits (GPU), survey them."""
    from dataclasses import fields

    from . import survey_fp8
    from ..gemm.shapes import FP8Case, fp8_split_fuzz
    if args.cases:
        with open(args.cases) as f:
            data = json.load(f)
        dicts = [m["case"] for m in data["mismatches"]] if isinstance(data, dict) else data
        names = {x.name for x in fields(FP8Case)}
        cases = [FP8Case(**{k: v for k, v in d.items() if k in names}) for d in dicts]
    else:
        cases = fp8_split_fuzz(args.fuzz, args.seed)
    if args.list_cases:
        return _write_cases(args, cases)
    if not survey_fp8.cuda_ready():
        print("[survey] --fp8 needs a CUDA GPU (--list-cases builds the list without one)", file=sys.stderr)
        return 2
    from .. import env
    t0 = time.time()
    picked = cases if args.cases else [c for c, _ in survey_fp8.split_cases(cases, args.want)]
    info = env.summary()
    info.update(torch=torch.__version__, lt_version=lt._lt().get_version(), cases_built=len(cases),
                cases_split=len(picked), query_seconds=round(time.time() - t0, 1), lt_log=LOG.path, fp8=True)
    with open(os.path.join(args.out, f"{args.name}-env.json"), "w") as f:
        json.dump(info, f, indent=1)
    print(info, flush=True)
    path = os.path.join(args.out, f"{args.name}.jsonl.gz")
    done, errors = record_all(path, picked, lambda i, case: survey_fp8.survey_case(case, args.seed * 1000 + i, LOG, attempt),
                              t0, args.budget)
    print(f"[survey] wrote {path}: {done} fp8 cases, {errors} errors of {len(picked)} split cases", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
