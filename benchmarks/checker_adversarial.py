"""Is the checker's split real? The corpus kernels whose checker classes outnumber their true
classes, run again on the GPU on draws chosen to expose a reduction order.

checker_gate.py's truth is "the same bytes on 5 wide-range draws" (2^-8 .. 2^8 times a normal
draw). Such draws hide some order differences: a sum of exp(x - max) over wide-range x is the
max's term alone, an argmax over finite values never meets a NaN (where Triton's combine keeps its
right operand, so the tree decides the answer), an fp32 sum rounded to fp16 may round every order
alike. Here every configuration of the named kernels runs on the wide draws *and* on these:
  narrow  a standard normal draw (every term of a sum matters)
  nan     narrow, with one element in 61 a NaN and values rounded to halves (ties)
  zeros   signed zeros and ones (what +0/-0 and ties do to max, argmax and sums)
  payloads  narrow, with whole rows and columns and one element in 61 NaNs of random sign and payload (which
          NaN a max or sum of NaNs returns: the canonical one or an input's)
and, for the plain GEMM kernels, K = 976 (a tail that BLOCK_K 32 and 64 cut differently: the 64
wide turns run two more all-zero k16 steps) with tiny bf16 / fp16 values. The truth is then the
bytes on all draws together; a checker class that holds two of those truths would be a wrong merge
(the gate fails), and a checker split of one stored-truth class is shown to be real when the new
truth splits it too.

    python benchmarks/checker_adversarial.py --out DIR --gpu [--kernels a,b] [--jobs N]
"""
from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))

DEFAULT = ("row_argmax", "logsumexp", "pinned_cross_entropy", "row_sum_fp16", "gemm_fp16", "gemm_bf16",
           "gemm_split_k")
_GEMM_K = {"gemm_fp16": 976, "gemm_bf16": 976}   # plain GEMMs rerun with a K tail


def _variants(args, outputs, seed, device="cuda"):
    """Adversarial copies of one argument set: every float input replaced, outputs kept."""
    import torch
    out = []
    for label in ("narrow", "nan", "zeros", "payloads"):
        g = torch.Generator(device=device).manual_seed(seed)
        a = dict(args)
        for name, v in args.items():
            if name in outputs or not torch.is_tensor(v) or not v.is_floating_point():
                continue
            x = torch.randn(v.shape, device=device, generator=g)
            if label == "nan":
                x = torch.round(x * 2) / 2
                x[torch.randint(0, 61, v.shape, device=device, generator=g) == 0] = float("nan")
            elif label == "zeros":
                x = torch.randint(0, 2, v.shape, device=device, generator=g).float() \
                    * torch.where(torch.rand(v.shape, device=device, generator=g) < 0.5, -1.0, 1.0)
                x = torch.where(x == 0, torch.where(torch.rand(v.shape, device=device, generator=g) < 0.5,
                                                    -0.0, 0.0), x)
            if v.dtype == torch.float8_e4m3fn:
                x = x.clamp(-448, 448)
            x = x.to(v.dtype)
            if label == "payloads":
                x = _payloads(x, g)
            a[name] = x
        a.update({o: args[o].clone() for o in outputs})
        out.append((label, a))
    return out


_NAN_BITS = {"torch.float32": (32, 23), "torch.float16": (16, 10), "torch.bfloat16": (16, 7)}


def _payloads(x, g):
    """x (a narrow draw) with whole rows (every third along dim 0), whole columns (every fifth along the last dim)
    and one element in 61 replaced by NaNs of random sign and payload, written bit by bit in x's own dtype: a max
    or sum over a row or column meets only NaNs there, so which payload comes out (the canonical NaN, or one of the
    inputs') is in the bytes compared. Other dtypes (fp8) get the one NaN torch makes."""
    import torch
    shape = x.shape
    idx = torch.arange(x.numel(), device=x.device).reshape(shape)
    last = shape[-1] if x.dim() else 1
    rows = (idx // max(x.numel() // max(shape[0], 1), 1)) % 3 == 0 if x.dim() > 1 else (idx // 64) % 3 == 0
    nan = rows | ((idx % last) % 5 == 0) | (torch.randint(0, 61, shape, device=x.device, generator=g) == 0)
    bits = _NAN_BITS.get(str(x.dtype))
    if bits is None:
        return torch.where(nan, torch.full_like(x, float("nan")), x)
    width, man = bits
    it = torch.int32 if width == 32 else torch.int16
    payload = torch.randint(0, 1 << man, shape, device=x.device, generator=g) | 1
    sign = torch.randint(0, 2, shape, device=x.device, generator=g) << (width - 1)
    exp = ((1 << (width - 1 - man)) - 1) << man
    pattern = (sign | exp | payload)
    pattern = torch.where(pattern >= (1 << (width - 1)), pattern - (1 << width), pattern).to(it).view(x.dtype)
    return torch.where(nan, pattern, x)


def probe_kernel(name, draws=5, seed=7):
    """Rows per grid: configurations, checker classes, stored-style truth (wide draws) and the
    truth on wide + adversarial draws, with the checker's wrong merges against the latter."""
    import torch
    from corpus import SPECS, gemms
    from checker_gate import _cfg, run_config, snapshot
    from bitorder import check
    spec = SPECS[name]
    k_tail = _GEMM_K.get(name)
    groups = {}
    for k in ([gemms.K] + ([k_tail] if k_tail else [])):
        old, gemms.K = gemms.K, k        # the GEMM specs read the module's K when they make arguments
        try:
            wide = [spec.make("cuda", seed + 1000 * (d + 1)) for d in range(draws)]
            adv = [a for d in range(2) for _, a in _variants(spec.make("cuda", seed + 77 * (d + 1)), spec.outputs,
                                                             seed + d)]
            if k_tail:   # tiny values: products near the bottom of the range
                adv += [{**a, **{n: (v.float() * 2.0 ** -12).to(v.dtype) for n, v in a.items()
                                 if n not in spec.outputs and torch.is_tensor(v) and v.is_floating_point()}}
                        for a in adv[:1]]
        finally:
            gemms.K = old
        kept_wide, kept_adv = snapshot(spec, wide), snapshot(spec, adv)
        for cfg in spec.space:
            ptx, w = run_config(spec, cfg, wide, kept_wide)
            _, x = run_config(spec, cfg, adv, kept_adv)
            grid = str(spec.grid({**wide[0], **cfg.kwargs}))
            g = groups.setdefault((k, grid), [])
            g.append((cfg, ptx, w, x))
    rows = []
    for (k, grid), members in groups.items():
        classes = check.partition([p for _, p, _, _ in members])
        wide_truth = [w for _, _, w, _ in members]
        truth = [(w, x) for _, _, w, x in members]
        true_sets = {}
        for i, t in enumerate(truth):
            true_sets.setdefault(t, []).append(i)
        rows.append({"kernel": name, "K": k, "grid": grid, "configs": len(members), "classes": len(classes),
                     "true_classes_wide": len(set(wide_truth)), "true_classes_all": len(true_sets),
                     "wrong_merges": [[_cfg(members[i][0]) for i in c] for c in classes
                                      if len({truth[i] for i in c}) > 1],
                     "checker_is_truth": sorted(map(sorted, classes)) == sorted(map(sorted, true_sets.values())),
                     "true_members": [[_cfg(members[i][0]) for i in c] for c in true_sets.values()]})
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--kernels", default=",".join(DEFAULT))
    ap.add_argument("--jobs", type=int, default=4)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    names = [n for n in a.kernels.split(",") if n]
    with multiprocessing.get_context("spawn").Pool(min(a.jobs, len(names))) as pool:
        rows = [r for rs in pool.imap(probe_kernel, names) for r in rs]
    for r in rows:
        print(f"{r['kernel']:22s} K {r['K']:5d} grid {r['grid']:14s} configs {r['configs']:3d} classes {r['classes']:3d}"
              f"  true(wide) {r['true_classes_wide']:3d}  true(all) {r['true_classes_all']:3d}"
              f"  wrong {len(r['wrong_merges'])}  checker==truth {r['checker_is_truth']}")
    summary = {"configs": sum(r["configs"] for r in rows), "wrong_merges": sum(len(r["wrong_merges"]) for r in rows)}
    with open(os.path.join(a.out, "adversarial.json"), "w") as f:
        json.dump({"summary": summary, "grids": rows}, f, indent=1)
    print(json.dumps(summary))
    return 1 if summary["wrong_merges"] else 0


if __name__ == "__main__":
    sys.exit(main())
