"""TorchInductor's reductions pinned by bitorder (GPU): a torch.compile'd model made batch-invariant.

A small model of reductions (RMSNorm with a weight, softmax, LayerNorm, a row sum; rows of
1024, so TorchInductor writes persistent reductions whose layout follows the batch) is
compiled with torch.compile and run at several batch sizes with TorchInductor's default
heuristics, and at two of them with coordinate-descent tuning; row 0's output bytes are compared
across all. Each mode runs in a process of its own with fresh TorchInductor and Triton caches,
both at once, within --budget seconds (what compiled by then is reported):
  free    Triton's own reductions (what TorchInductor gives everyone),
  pinned  BITORDER_PIN_REDUCTIONS=1 and `import bitorder` before compiling, kernels compiled
          in-process (compile_threads 1), so every tl.sum / tl.reduce is the pinned tree.
The generated PTX is read back from the Triton cache to count kernels with pinned adds.
Pass: pinned gives one byte pattern for every batch size. Writes inductor.json.

    python benchmarks/inductor_demo.py --out DIR
"""
from __future__ import annotations

import argparse
import glob
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import time

BATCHES = (1, 3, 64, 1024, 4096)
TUNED = (3, 4096)   # batch sizes also compiled with coordinate-descent tuning (it times many configs)
D = 1024


def child(mode: str) -> dict:
    where = None
    if mode == "pinned":
        import bitorder  # (installs the pinned reductions before Inductor compiles)
        where = bitorder.__file__   # a planted-fault run must show its copied tree here
    import torch
    import torch._inductor.config as cfg

    cfg.compile_threads = 1
    torch.manual_seed(0)
    w = torch.randn(D, device="cuda")

    def model(x):
        x = x * torch.rsqrt((x * x).mean(-1, keepdim=True) + 1e-6) * w
        x = torch.softmax(x * 8.0, dim=-1)
        x = torch.nn.functional.layer_norm(x, (D,))
        return torch.cat([x, x.sum(-1, keepdim=True)], dim=-1)

    g = torch.Generator(device="cuda").manual_seed(1)
    full = torch.randn(max(BATCHES), D, device="cuda", generator=g) * torch.exp2(
        torch.randint(-6, 7, (max(BATCHES), D), device="cuda", generator=g).float())
    out = {}
    # the batch size moves TorchInductor's XBLOCK and num_warps; coordinate-descent tuning moves
    # them again (the row's reduction stays one persistent block of D): layouts, not programs
    for variant, batches in (("default", BATCHES), ("coordinate_descent", TUNED)):
        cfg.coordinate_descent_tuning = variant == "coordinate_descent"
        torch._dynamo.reset()
        f = torch.compile(model, dynamic=False)
        for b in batches:
            y = f(full[:b].clone())
            torch.cuda.synchronize()
            out[f"{variant}:{b}"] = hashlib.sha256(y[0].contiguous().view(torch.uint8).cpu().numpy().tobytes()).hexdigest()[:16]
            print(json.dumps({"rows": out, "bitorder": where}), flush=True)   # so far, should the parent stop us
    return out


def start_mode(mode: str, tmp: str) -> subprocess.Popen:
    """The child for one mode, with caches of its own under tmp."""
    env = dict(os.environ, TORCHINDUCTOR_CACHE_DIR=os.path.join(tmp, "inductor"),
               TRITON_CACHE_DIR=os.path.join(tmp, "triton"), TORCHINDUCTOR_COMPILE_THREADS="1",
               BITORDER_PIN_REDUCTIONS="1" if mode == "pinned" else "0")
    return subprocess.Popen([sys.executable, __file__, "--child", mode], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def finish_mode(p: subprocess.Popen, tmp: str, deadline: float) -> dict:
    """The child's rows (the last line it printed, even if stopped at the deadline) and its PTX."""
    try:
        out, err = p.communicate(timeout=max(1.0, deadline - time.time()))
        stopped = False
    except subprocess.TimeoutExpired:
        p.kill()
        out, err = p.communicate()
        stopped = True
    lines = [ln for ln in out.strip().splitlines() if ln.startswith("{")]
    if not lines:
        return {"error": (err or "")[-2000:], "stopped_at_deadline": stopped}
    last = json.loads(lines[-1])
    rows = last["rows"]
    ptx = [open(f).read() for f in glob.glob(os.path.join(tmp, "**", "*.ptx"), recursive=True)]
    return {"row0_digest_by_variant_and_batch": rows, "patterns": len(set(rows.values())), "bitorder": last["bitorder"],
            "compiled": len(rows), "planned": len(BATCHES) + len(TUNED), "stopped_at_deadline": stopped,
            "kernels": len(ptx), "kernels_with_pinned_adds": sum("add.rn.f32" in t for t in ptx)}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out")
    ap.add_argument("--child")
    ap.add_argument("--budget", type=float, default=300, help="seconds for both modes (they compile side by side)")
    args = ap.parse_args()
    if args.child:
        child(args.child)
        return 0
    deadline = time.time() + args.budget
    with tempfile.TemporaryDirectory() as t_free, tempfile.TemporaryDirectory() as t_pinned:
        tmps = {"free": t_free, "pinned": t_pinned}
        procs = {m: start_mode(m, tmps[m]) for m in tmps}   # both modes at once: compiling is the cost
        res = {m: finish_mode(procs[m], tmps[m], deadline) for m in tmps}
    # pass: every batch size and tuning compiled, one byte pattern for row 0 when pinned
    res["pass"] = res["pinned"].get("patterns") == 1 and res["pinned"].get("compiled") == res["pinned"].get("planned")
    with open(os.path.join(args.out, "inductor.json"), "w") as f:
        json.dump(res, f, indent=1)
    print(json.dumps(res, indent=1))
    return 0 if res["pass"] else 1


if __name__ == "__main__":
    sys.exit(main())
