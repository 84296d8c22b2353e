"""What torch._scaled_mm computes on the H200 (GPU): the evidence the fp8 profile entries wait for.

For fp8 e4m3 shapes x use_fast_accum x out dtype x tensor-/row-wise scales x bias, it records
  - cuBLASLt's own log of the call (the algorithm torch ran) beside bitorder's mirrored query
    (does fp8.plan ask what torch asks?),
  - which epilogue candidate of the Triton fp8 chain kernel returns torch's bytes: the scales as
    one product (scale), scale_a then scale_b, or scale_b then scale_a (cuBLAS's A is torch's b),
  - the same for the CPU twin (bitorder.emulate.matmul),
and saves the small cases' operands and torch's output (probe_fp8_cases.npz) so that further
epilogue hypotheses can be tested on a CPU afterwards. Scales are not powers of two, so their
order shows in the bits. Writes probe_fp8.json.

    python benchmarks/probe_fp8.py --out DIR [--budget S]
"""
from __future__ import annotations

import argparse
import dataclasses
import itertools
import json
import os
import sys
import time

os.environ.setdefault("CUBLASLT_LOG_LEVEL", "2")
os.environ.setdefault("CUBLASLT_LOG_FILE", "/tmp/bitorder-fp8-cublaslt.log")
os.environ["BITORDER_UNVERIFIED"] = "1"   # the candidates are what this run decides
import numpy as np  # noqa: E402
import torch  # noqa: E402

from bitorder import emulate  # noqa: E402
from bitorder.cublas import ltlog  # noqa: E402
from bitorder.draws import torch_draw  # noqa: E402
from bitorder.gemm import fp8  # noqa: E402

SHAPES = [(64, 64, 512), (128, 128, 2048), (33, 80, 1024), (256, 512, 4096), (1000, 1024, 1008),
          (8, 4096, 4096), (64, 64, 8192), (4096, 4096, 4096), (16, 128, 65536)]
SMALL = 64 * 1024 * 1024   # M*N*K at most this: operands saved and replayed on the twin
EPILOGUES = {"scale": ("scale",), "a_then_b": ("scale_a", "scale_b"), "b_then_a": ("scale_b", "scale_a"),
             "fma_bias": ("scale_bias_fma",)}
OUT = {"bf16": torch.bfloat16, "fp16": torch.float16, "fp32": torch.float32}


def bits(x):
    return x.contiguous().view({2: torch.int16, 4: torch.int32}[x.element_size()])


def scales(kind, M, N, seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    if kind == "tensor":
        return (torch.tensor(0.37, device="cuda"), torch.tensor(1.7000001, device="cuda"))
    return (torch.rand((M, 1), device="cuda", generator=g) + 0.3, torch.rand((1, N), device="cuda", generator=g) + 0.3)


def candidates(desc):
    """{candidate name: the descriptor with that epilogue's scale steps (or why it is invalid)}."""
    res = {}
    for name, steps in EPILOGUES.items():
        rest = tuple(s for s in desc.epilogue if not s.startswith("scale"))
        if name == "fma_bias":
            if "bias_acc" not in rest:
                continue    # without a bias it is the "scale" candidate
            rest = tuple(s for s in rest if s != "bias_acc")
        epi = steps + rest
        try:
            d = dataclasses.replace(desc, epilogue=epi)
            res[name] = d
        except Exception as e:  # noqa: BLE001
            res[name] = f"{type(e).__name__}: {e}"
    return res


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--budget", type=float, default=150)
    args = ap.parse_args()
    log = ltlog.LtLog()
    rows, saved, t0 = [], {}, time.time()
    combos = list(itertools.product(SHAPES, (True, False), ("bf16", "fp16", "fp32"), ("tensor", "row"), (False, True)))
    for i, ((M, N, K), fast, out, scaling, with_bias) in enumerate(combos):
        if time.time() - t0 > args.budget:
            break
        if with_bias and out == "fp32":
            continue
        a = torch_draw((M, K), "e4m3", 11 + i, 1, "wide")
        b = torch_draw((N, K), "e4m3", 11 + i, 2, "wide").t()
        sa, sb = scales(scaling, M, N, 5 + i)
        bias = torch_draw((N,), out, 11 + i, 3, "narrow") if with_bias else None
        row = {"m": M, "n": N, "k": K, "fast_accum": fast, "out": out, "scaling": scaling, "bias": with_bias}
        try:
            log.new()
            ref = torch._scaled_mm(a, b, sa, sb, bias=bias, out_dtype=OUT[out], use_fast_accum=fast)
            torch.cuda.synchronize()
            ran = [ltlog.algo_key(p["algo"]) for p in log.new() if "algo" in p]
            p = fp8.plan(a, b, sa, sb, bias, OUT[out], fast)
            row.update(ran=ran, planned=p.answer, path=p.path, reason=p.reason, desc=str(p.desc) if p.desc else None)
            if p.desc is not None:
                row["triton"], row["twin"] = {}, {}
                for name, d in candidates(p.desc).items():
                    if isinstance(d, str):
                        row["triton"][name] = d
                        continue
                    try:
                        ours = fp8.run(a, b, sa, sb, d, bias, OUT[out])
                        row["triton"][name] = bool(torch.equal(bits(ours), bits(ref)))
                    except NotImplementedError as e:
                        row["triton"][name] = f"not built: {e}"
                    if M * N * K <= SMALL:
                        host = lambda x: emulate.to_numpy(x.cpu())[0]  # noqa: E731
                        twin = emulate.matmul(host(a), host(b), d, None if bias is None else host(bias), out,
                                              sa.cpu().numpy(), sb.cpu().numpy())
                        row["twin"][name] = bool(np.array_equal(np.ascontiguousarray(twin).view(np.uint8),
                                                                ref.cpu().contiguous().view(torch.uint8).numpy()))
            if M * N * K <= SMALL and len(saved) < 60:
                key = f"c{i}"
                saved.update({f"{key}_a": a.view(torch.uint8).cpu().numpy(),
                              f"{key}_b": b.t().contiguous().view(torch.uint8).cpu().numpy(),
                              f"{key}_sa": sa.cpu().numpy(), f"{key}_sb": sb.cpu().numpy(),
                              f"{key}_ref": ref.cpu().contiguous().view(torch.uint8).numpy()})
                if bias is not None:
                    saved[f"{key}_bias"] = bias.view(torch.uint8).cpu().numpy()
                row["saved_as"] = key
        except Exception as e:  # noqa: BLE001  (a combination torch or cuBLASLt rejects: recorded)
            row["error"] = f"{type(e).__name__}: {e}"[:300]
        rows.append(row)
        print(json.dumps({k: row.get(k) for k in ("m", "n", "k", "fast_accum", "out", "scaling", "bias", "path",
                                                 "triton", "twin", "error")}), flush=True)
    np.savez_compressed(os.path.join(args.out, "probe_fp8_cases.npz"), **saved)
    summary = {"device": torch.cuda.get_device_name(), "torch": torch.__version__, "cases": len(rows),
               "planned": len(combos), "seconds": round(time.time() - t0, 1),
               "query_matches_log": sum(bool(r.get("ran")) and r.get("planned") is not None
                                        and r["ran"][-1].get("algo_id") == r["planned"]["algo_id"]
                                        and r["ran"][-1].get("tile") == r["planned"]["tile"] for r in rows),
               "triton_candidate_hits": {n: sum(r.get("triton", {}).get(n) is True for r in rows) for n in EPILOGUES},
               "twin_candidate_hits": {n: sum(r.get("twin", {}).get(n) is True for r in rows) for n in EPILOGUES}}
    with open(os.path.join(args.out, "probe_fp8.json"), "w") as f:
        json.dump({"summary": summary, "rows": rows}, f, indent=1)
    print(json.dumps(summary, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
