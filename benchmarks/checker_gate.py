"""The checker's soundness gate and partition quality on the pinned suite's twelve kernels.

For each kernel and each kept block (one launch grid), every configuration num_warps x
num_stages x pinned/free is compiled and classed by bitorder.check. On a GPU (--gpu) each
configuration also runs on two fresh random draws: a class whose members give different
bytes is a WRONG MERGE (the gate fails); true classes (same bytes on both draws) split by
the checker are needless splits (costing only tuning time). Without a GPU it reports the
partition and which checker level classed each kernel. Writes checker.json.

    python benchmarks/checker_gate.py --out DIR [--gpu] [--cases row_sum,softmax] [--quick]
"""
from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import os
import sys
import time

import triton
import triton.language as tl
from rich.progress import track

sys.path.insert(0, os.path.dirname(__file__))
import pinned_suite as ps  # noqa: E402

import bitorder  # noqa: E402
from bitorder import check  # noqa: E402


def cpu_ptx(name, w, s, b, pinned):
    """The sm90 PTX of one configuration, compiled here without a GPU (all pointers aligned)."""
    kernel, _, _, _, block_name, _, _, shapes = ps.CASES[name]
    args = kernel.arg_names
    sig = {a: ("*i32" if a == "t_ptr" else "*fp32") for a in args if a.endswith("_ptr")}
    consts = dict(shapes)
    for a in args:
        if a in shapes and not kernel.params[args.index(a)].is_constexpr:
            sig[a] = "i32"
            consts.pop(a)
    return bitorder.compile(kernel, "sm90", signature=sig, num_warps=w, num_stages=s,
                            constexprs={**consts, block_name: b, "PINNED": pinned}, aligned=tuple(sig)).ptx


def gpu_run(name, w, s, b, pinned, draws):
    """(PTX the JIT built, digests of the output on each draw)."""
    import torch
    kernel, _, out_shape, grid, block_name, _, _, shapes = ps.CASES[name]
    digests, ptx = [], None
    for inputs in draws:
        out = torch.empty(out_shape, device="cuda")
        compiled = kernel[grid(b)](*inputs, out, **shapes, **{block_name: b}, PINNED=pinned, num_warps=w, num_stages=s)
        ptx = compiled.asm["ptx"]
        digests.append(ps.digest(out))
    return ptx, tuple(digests)


@triton.jit
def _max_pairs(a_ptr, b_ptr, y_ptr):
    i = tl.arange(0, 8)
    tl.store(y_ptr + i, tl.maximum(tl.load(a_ptr + i), tl.load(b_ptr + i)))


def max_order_probe():
    """Whether the H200's max.f32 (tl.maximum, as tl.max lowers) depends on operand order
    for signed zeros and NaNs: if not, max trees could be merged like sets (not done yet)."""
    import torch
    vals = torch.tensor([0.0, -0.0, float("nan"), 1.0, -0.0, 0.0, 1.0, float("nan")], device="cuda")
    swapped = torch.roll(vals, 4)
    ab, ba = torch.empty(8, device="cuda"), torch.empty(8, device="cuda")
    compiled = _max_pairs[(1,)](vals, swapped, ab)
    _max_pairs[(1,)](swapped, vals, ba)
    bits = lambda t: [hex(v & 0xFFFFFFFF) for v in t.view(torch.int32).tolist()]  # noqa: E731
    ops = sorted({ln.split()[0] for ln in compiled.asm["ptx"].splitlines() if ln.strip().startswith("max")})
    return {"ptx_ops": ops, "a": bits(vals), "b": bits(swapped), "max(a,b)": bits(ab), "max(b,a)": bits(ba),
            "order_independent": bits(ab) == bits(ba)}


checker_s = 0.0   # CPU seconds spent classing (PTX text to classes), for the speed figure


def gate(names, gpu: bool, quick: bool):
    global checker_s
    rows, spaces, checker_s = [], [], 0.0
    for name in names:
        blocks = ps.CASES[name][5][:1 if quick else 2]
        for b in blocks:
            spaces.append((name, b))
    warps, stages = ((1, 4), (1, 3)) if quick else ((1, 2, 4, 8), (1, 3))
    for name, b in track(spaces, description="checker gate"):
        make = ps.CASES[name][1]
        draws = [make(seed) for seed in (11, 12)] if gpu else None
        configs, ptx, truth = [], [], []
        for w, s, pinned in itertools.product(warps, stages, (True, False)):
            try:
                if gpu:
                    p, d = gpu_run(name, w, s, b, pinned, draws)
                    truth.append(d)
                else:
                    p = cpu_ptx(name, w, s, b, pinned)
            except Exception as e:   # a configuration Triton cannot build for this kernel
                rows.append({"case": name, "block": b, "config": [w, s, pinned], "skipped": type(e).__name__})
                continue
            configs.append((w, s, pinned))
            ptx.append(p)
        t0 = time.process_time()
        classes = check.partition(ptx)
        checker_s += time.process_time() - t0
        levels = [check.level(p) for p in ptx]
        row = {"case": name, "block": b, "configs": [list(c) for c in configs],
               "classes": classes, "v1": sum(lv.startswith("v1") for lv in levels),
               "v0_reasons": sorted({lv for lv in levels if lv.startswith("v0")}),
               "pinned_classes": len({check.signature(p) for p, c in zip(ptx, configs) if c[2]}),
               "free_classes": len({check.signature(p) for p, c in zip(ptx, configs) if not c[2]})}
        if gpu:
            wrong = [[configs[i] for i in cl] for cl in classes if len({truth[i] for i in cl}) > 1]
            true_classes = {}
            for i, d in enumerate(truth):
                true_classes.setdefault(d, []).append(i)
            row.update(wrong_merges=wrong, true_classes=len(true_classes),
                       needless_splits=len(classes) - len(true_classes),
                       pinned_true_patterns=len({truth[i] for i, c in enumerate(configs) if c[2]}))
        rows.append(row)
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--gpu", action="store_true")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--cases", default=",".join(ps.CASES))
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    rows = gate(a.cases.split(","), a.gpu, a.quick)
    spaces = [r for r in rows if "classes" in r]
    summary = {"gpu": a.gpu, "spaces": len(spaces), "configs": sum(len(r["configs"]) for r in spaces),
               "v1_classed": sum(r["v1"] for r in spaces),
               "checker_configs_per_s": round(sum(len(r["configs"]) for r in spaces) / max(checker_s, 1e-9), 1),
               "wrong_merges": sum(len(r.get("wrong_merges", [])) for r in spaces),
               "needless_splits": sum(r.get("needless_splits", 0) for r in spaces) if a.gpu else None}
    if a.gpu:
        import torch
        summary["device"] = torch.cuda.get_device_name()
        summary["max_order_probe"] = max_order_probe()
    for r in spaces:
        print(f"{r['case']:14s} block {r['block']:5}  configs {len(r['configs']):2d}  v1 {r['v1']:2d}  "
              f"classes {len(r['classes']):2d} (pinned {r['pinned_classes']}, free {r['free_classes']})"
              + (f"  true {r['true_classes']}  wrong {len(r['wrong_merges'])}" if a.gpu else "")
              + (f"  v0: {r['v0_reasons'][0][:70]}" if r["v0_reasons"] else ""))
    with open(os.path.join(a.out, "checker.json"), "w") as f:
        json.dump({"summary": summary, "spaces": rows}, f, indent=1)
    print(json.dumps(summary))
    return 1 if summary["wrong_merges"] else 0


if __name__ == "__main__":
    sys.exit(main())
