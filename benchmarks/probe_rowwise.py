"""Which epilogue does cuBLAS run for torch._scaled_mm with row-wise (outer-vector) scales?

The 2026-11-30c fp8 gate: with row-wise scales cuBLASLt answered algo 66 (as for tensor-wise
scales) and the tensor-wise epilogue (acc * (scale_a * scale_b), rounded once) gave other bytes,
K = 16 shapes included. This probe reads the accumulator itself (a tensor-wise call with unit
scales and fp32 output: acc * (1 * 1) is acc) and compares the row-wise output with each
candidate epilogue computed from it in fp32 (torch's elementwise fp32 multiply and add round
to nearest on the GPU, one rounding each; fma is computed in fp64 and rounded once, exact for
these operands' products). A candidate that gives 0 differing elements on every draw and
config is the epilogue; none at 0 means the row-wise kernel's chain is not the tensor-wise
one (then the accumulator read here is not its accumulator).

    python benchmarks/probe_rowwise.py --out DIR
Writes DIR/probe_rowwise.json: per config, per candidate, the differing element count.
"""
from __future__ import annotations

import argparse
import json
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "src"))
from bitorder.draws import torch_draw  # noqa: E402

OUT = {"bf16": torch.bfloat16, "fp16": torch.float16, "fp32": torch.float32}
# the shapes of the gate's listed mismatches (m, n, k), smallest K first
SHAPES = [(944, 16, 16), (16, 4752, 16), (1056, 4560, 32), (904, 208, 48), (2600, 1696, 64), (1704, 64, 96),
          (28, 960, 672), (1, 8336, 768), (8, 2640, 1040), (16, 1184, 7408), (1813 // 16 * 16, 112, 18000),
          # the 2026-11-30d gate's two misses of "(acc*sb)*sa+bias" (slow accumulation, M = 1), and
          # skinny outputs around them: does a small M or N swap the roles of the two scale vectors?
          (1, 64, 1520), (1, 16, 16), (1, 16, 1520), (1, 256, 512), (2, 64, 1520), (16, 64, 1520),
          (64, 16, 1520), (1, 4096, 4096)]


def candidates(acc, sa, sb, bias):
    """{name: fp32 tensor} for each epilogue order considered (bias None: no bias term)."""
    f64 = lambda x: x.double()  # noqa: E731
    s = sa * sb                                     # (M, N) outer product, rounded
    out = {"acc*(sa*sb)": acc * s, "(acc*sa)*sb": (acc * sa) * sb, "(acc*sb)*sa": (acc * sb) * sa}
    if bias is not None:
        b = bias.float()[None, :]
        out = {f"{k}+bias": v + b for k, v in out.items()}
        out["fma(acc,sa*sb,bias)"] = (f64(acc) * f64(s) + f64(b)).float()
        out["fma(acc*sa,sb,bias)"] = (f64(acc * sa) * f64(sb) + f64(b)).float()
        out["fma(acc*sb,sa,bias)"] = (f64(acc * sb) * f64(sa) + f64(b)).float()
    return out


def bits(x):
    return x.contiguous().view({2: torch.int16, 4: torch.int32}[x.element_size()])


def probe(m, n, k, fast, out, with_bias, seed):
    res = {}
    for i, kind in enumerate(("narrow", "wide")):
        a = torch_draw((m, k), "e4m3", seed + i, 1, kind)
        w = torch_draw((n, k), "e4m3", seed + i, 2, kind)
        g = torch.Generator(device="cuda").manual_seed(seed + i)
        sa = torch.rand((m, 1), device="cuda", generator=g) + 0.3
        sb = torch.rand((1, n), device="cuda", generator=g) + 0.3
        bias = torch_draw((n,), out, seed + i, 3, "narrow") if with_bias else None
        one = torch.ones((), device="cuda")
        try:
            got = torch._scaled_mm(a, w.t(), sa, sb, bias=bias, out_dtype=OUT[out], use_fast_accum=fast)
        except RuntimeError as e:
            return {"torch rejects": str(e)[:200]}
        acc = torch._scaled_mm(a, w.t(), one, one, out_dtype=torch.float32, use_fast_accum=fast)
        for name, c in candidates(acc, sa, sb, bias).items():
            diff = int((bits(c.to(OUT[out])) != bits(got)).sum())
            res.setdefault(name, {})[kind] = diff
    return res


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--seed", type=int, default=20261130)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    rows = []
    for j, (m, n, k) in enumerate(SHAPES):
        for fast in (True, False):
            for out in ("bf16", "fp16", "fp32"):
                for with_bias in (False, True):
                    r = probe(m, n, k, fast, out, with_bias, args.seed + 97 * j)
                    rows.append({"m": m, "n": n, "k": k, "fast_accum": fast, "out": out, "bias": with_bias, "diff": r})
    exact = {}
    for r in rows:
        for name, d in r["diff"].items():
            if isinstance(d, dict):
                e = exact.setdefault(name, [0, 0])
                e[0] += 1
                e[1] += all(v == 0 for v in d.values())
    summary = {"device": torch.cuda.get_device_name(), "configs": len(rows),
               "candidate_exact_configs": {k: f"{v[1]}/{v[0]}" for k, v in exact.items()}}
    # exact on every config that ran: the env value fp8.row_wise_epilogue reads (nobias=NAME;bias=NAME)
    everywhere = {kind: [k for k, v in exact.items() if v[0] and v[0] == v[1] and ("bias" in k) == (kind == "bias")]
                  for kind in ("nobias", "bias")}
    summary["exact_everywhere"] = everywhere
    summary["env"] = ";".join(f"{kind}={names[0]}" for kind, names in everywhere.items() if names)
    with open(os.path.join(args.out, "probe_rowwise.json"), "w") as fh:
        json.dump({"summary": summary, "rows": rows}, fh, indent=1)
    print(json.dumps(summary, indent=1))


if __name__ == "__main__":
    main()
