"""The prober's GPU side for torch._scaled_mm (fp8 e4m3, tensor-wise scales): `probe survey --fp8`.

For each FP8Case (a row-major, b column-major, use_fast_accum, out bf16/fp16/fp32, optional bias)
it records what survey.py records for fp16/bf16 calls, in the same JSON line format, with the
case's fp8 fields and prober_fp8's instruments:
  ran      cuBLASLt's own log of the answer torch's call ran (matched by the output pointer),
  query / planned   the planner's mirrored query (bitorder.gemm.fp8.lt_query) and its answer,
  kernels  the kernels torch.profiler saw,
  samples_narrow / _wide / _cancel   sampled output bits of seeded draws under fixed fp32
           scales (prober_fp8.SCALES, kept in the record), rebuilt on the CPU from the hash,
  walks    fp8 walks along K (walks.fp8_walk_specs): e4m3 plants, scales 1.0, a zero bias.
`split_cases` asks the mirrored query which cases cuBLASLt splits (split_k > 1) and keeps those:
that needs the GPU; building the list (shapes.fp8_split_fuzz) does not.

    bitorder probe survey --fp8 --out DIR [--budget S] [--fuzz N]      (GPU)
    bitorder probe survey --fp8 --out DIR --list-cases                  (any machine: the list only)
"""
from __future__ import annotations

import traceback

import numpy as np

from . import prober_fp8, walks
from ..gemm.shapes import FP8Case

OUT_TORCH = {"bf16": "bfloat16", "fp16": "float16", "fp32": "float32"}
# Where the calls run: "cuda" for a survey; the CPU tests set "cpu" to check the records' layout
# against the prober's rebuilds (CPU torch._scaled_mm has other arithmetic: no bits claimed).
DEVICE = "cuda"


def _torch():
    import torch
    return torch


def cuda_ready() -> bool:
    """A CUDA device torch can use (False on a CPU machine: nothing here may touch torch.cuda then)."""
    try:
        return bool(_torch().cuda.is_available())
    except Exception:  # noqa: BLE001
        return False


def operands(case: FP8Case, seed: int, kind: str):
    """a (m, k), b = w.t() with w (n, k), the bias and the scales of one draw, as gate_fp8 draws
    them (seed: the record's; the draw's offset is added here), on DEVICE."""
    from ..draws import torch_draw
    torch = _torch()
    s = seed + prober_fp8.SEED_OFFSET[kind]
    dk = "narrow" if kind == "cancel" else kind
    a = torch_draw((case.m, case.k), "e4m3", s, prober_fp8.TID_A, dk, device=DEVICE)
    w = torch_draw((case.n, case.k), "e4m3", s, prober_fp8.TID_B, dk, device=DEVICE)
    if kind == "cancel" and case.k >= 32:
        h = prober_fp8.cancel_half(case.k)
        a[:, h:2 * h] = (-a[:, :h].float()).to(a.dtype)   # negation is exact in e4m3
        w[:, h:2 * h] = w[:, :h]
    sa, sb = (torch.tensor(x, dtype=torch.float32, device=DEVICE) for x in prober_fp8.scales_of(kind))
    bias = torch_draw((case.n,), case.out, s, prober_fp8.TID_BIAS, dk, device=DEVICE) if case.bias else None
    return a, w.t(), sa, sb, bias


def scaled_mm(case: FP8Case, a, b, sa, sb, bias):
    torch = _torch()
    return torch._scaled_mm(a, b, sa, sb, bias=bias, out_dtype=getattr(torch, OUT_TORCH[case.out]),
                            use_fast_accum=case.fast_accum)


def walk_box(case: FP8Case, use_rows: bool):
    """box(rows, col) for walks.fp8_walk: the pattern rows go into a's rows (or w's rows, b's
    columns), every row of the other operand holds col; scales 1.0, a zero bias."""
    torch = _torch()
    f8 = torch.float8_e4m3fn
    a = torch.zeros((case.m, case.k), dtype=f8, device=DEVICE)
    w = torch.zeros((case.n, case.k), dtype=f8, device=DEVICE)
    one = torch.ones((), dtype=torch.float32, device=DEVICE)
    bias = torch.zeros(case.n, dtype=getattr(torch, OUT_TORCH[case.out]), device=DEVICE) if case.bias else None

    def box(rows, col):
        r = torch.from_numpy(rows.astype(np.float32)).to(DEVICE).to(f8)   # every planted value is exact in e4m3
        c = torch.from_numpy(col.astype(np.float32)).to(DEVICE).to(f8)
        a.zero_(), w.zero_()
        if use_rows:
            a[: r.shape[0]] = r
            w[:] = c
        else:
            w[: r.shape[0]] = r
            a[:] = c
        out = scaled_mm(case, a, w.t(), one, one, bias)
        return (out[: r.shape[0], 0] if use_rows else out[0, : r.shape[0]]).double().cpu().numpy()
    return box, (case.m if use_rows else case.n)


def split_cases(cases: list[FP8Case], want: int) -> list[tuple[FP8Case, dict]]:
    """(case, answer) for the first `want` cases whose mirrored cuBLASLt query answers with
    split_k > 1 (GPU: the heuristic runs there)."""
    from ..gemm import fp8
    from . import lt
    out = []
    for c in cases:
        ans = lt.heuristic(fp8.lt_query(c.m, c.n, c.k, c.dtype, c.out, c.bias, c.fast_accum, c.scaling), 1)
        if ans and ans[0].split_k > 1:
            out.append((c, ans[0].to_dict()))
            if len(out) >= want:
                break
    return out


def survey_case(case: FP8Case, seed: int, log, attempt) -> tuple[dict, list]:
    """One fp8 record and the calls whose kernels the profiler should name (survey.py batches them)."""
    from ..gemm import fp8
    from . import ltlog
    from .survey import samples
    torch = _torch()
    rec = {"case": case.to_dict(), "seed": seed,
           "scales": {k: list(prober_fp8.scales_of(k)) for k in prober_fp8.DRAW_KINDS}}
    a, b, sa, sb, bias = operands(case, seed, "narrow")
    log.new()
    out = scaled_mm(case, a, b, sa, sb, bias)
    if DEVICE == "cuda":
        torch.cuda.synchronize()
    d_ptr = "0X%X" % out.data_ptr()
    lines = [p for p in log.new() if "algo" in p]
    mine = [p for p in lines if p.get("D") == d_ptr]
    # the output pointer names the call's line; should scaled_gemm's line print D otherwise, the
    # call's only line is taken (probe_fp8 read it that way), and the record says which
    rec["ran_by"] = "pointer" if mine else ("only line" if len(lines) == 1 else "none")
    rec["ran"] = [dict(ltlog.algo_key(p["algo"]), api=p["api"], workspace=p.get("workSpaceSizeInBytes"))
                  for p in (mine or (lines if len(lines) == 1 else []))]
    rec["samples_narrow"] = samples(case, out)
    calls = [lambda: scaled_mm(case, a, b, sa, sb, bias)]
    q = fp8.lt_query(case.m, case.n, case.k, "e4m3", case.out, case.bias, case.fast_accum, case.scaling)
    rec["query"] = dict(q.__dict__)

    def planned():
        p = fp8.plan(a, b, sa, sb, bias, out.dtype, case.fast_accum)
        return {"answer": p.answer, "path": p.path, "reason": p.reason}
    attempt(rec, "planned", planned)

    for kind in ("wide", "cancel"):
        attempt(rec, "samples_" + kind, lambda kind=kind: samples(case, scaled_mm(case, *operands(case, seed, kind))))
    split = rec["ran"][0]["split_k"] if rec["ran"] else 1
    use_rows = case.m >= 8 or case.m >= case.n
    box, cap = walk_box(case, use_rows)
    rec["walks"] = []
    for spec in walks.fp8_walk_specs(case.k, split, prober_fp8.WALK_BUDGET):
        try:
            w = walks.fp8_walk(box, case.k, spec, cap)
            rec["walks"].append({"spec": spec, "runs": w.runs()})
        except Exception as e:  # noqa: BLE001  (one failing walk must not lose the record)
            rec.setdefault("walk_errors", []).append(f"{spec['name']}: {type(e).__name__}: {e}"[:300])
            rec.setdefault("trace", traceback.format_exc()[-1200:])
    return rec, calls
