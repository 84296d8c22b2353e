"""`bitorder check DIR` on TorchInductor's cache after torch.compile autotuned real model pieces (issue 5, GPU):
which generated kernels' autotune configurations the checker proves bitwise-equal, and, for every variant the
autotuner ran, whether its class mates returned identical bytes.

    PYTHONPATH=src python benchmarks/inductor_cache_check.py [--pointwise-configs] OUT.json      (a CUDA GPU)

The models are capture_inductor.py's (a Llama RMSNorm + SwiGLU block, a GPT-2 LayerNorm + GELU block, masked
attention probabilities, cross-entropy forward and backward), compiled with Inductor's default autotuning (a
reduction's several configurations benched at its first launch; no GEMM templates), inputs scaled elementwise by
2^[-4, 4]. Inductor's autotuner benchmarks every
configuration of a kernel through CachingAutotuner.bench; this script wraps it to launch each configuration once
more on cloned arguments (twice: a variant whose two launches differ is counted as nondeterministic, not compared)
and keep a digest of every tensor argument's bytes, by the launcher's cache folder (`launcher.cache_hash`, the
folder Triton compiled it into). `python -m bitorder check $TORCHINDUCTOR_CACHE_DIR --json` then groups and
classes the cache as a user would; a class member whose digest is not its class's first recorded one is a wrong
merge (exit 1). Variants the autotuner did not bench (kernels with one configuration) have no digest.
--pointwise-configs sets Inductor's max_autotune_pointwise, so pointwise kernels are benched over several XBLOCK
too. Since 2026-12-05h `bitorder check` classes an Inductor kernel's variants over the grids Inductor launches them
on (cdiv(xnumel, XBLOCK)): a class may hold variants of other XBLOCK, launched over their own grids here as by the
autotuner (classes_over_grids counts those classes, compared_over_grids their members with bytes). copied_cache:
the same check on a copy of the cache with the original moved away, as on a machine the cache was copied to."""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile

RECORD: dict = {}      # cache folder name -> {"kernel", "config", "digest" or None (nondeterministic)}


def compare(kernels: list, record: dict) -> dict:
    """Per kernel group of `bitorder check --json`, against RECORD: variants, classes, variants with bytes,
    true classes among them, and wrong merges (a recorded member whose digest differs from its class's first)."""
    out = {"kernels": {}, "wrong_merges": 0, "variants": 0, "compared": 0, "kernels_over_grids": 0,
           "classes_over_grids": 0, "compared_over_grids": 0}
    for k in kernels:
        row = {"variants": k["variants"], "classes": len(k["classes"]), "compared": 0, "wrong_merges": 0,
               "launch_grids": bool(k.get("launch_grids")), "classes_over_grids": 0}
        digests = set()
        for c in k["classes"]:
            got = [record[os.path.basename(f)]["digest"] for f in c["folders"]
                   if os.path.basename(f) in record and record[os.path.basename(f)]["digest"]]
            row["compared"] += len(got)
            row["wrong_merges"] += sum(d != got[0] for d in got[1:])
            digests.update(got)
            # a class whose members launch over other grids (bitorder check's super-blocks, Inductor's XBLOCK)
            if len({m.split("grid=")[-1] for m in c.get("members", []) if "grid=" in m}) > 1:
                row["classes_over_grids"] += 1
                out["compared_over_grids"] += len(got)
        row["true_classes_compared"] = len(digests)
        out["kernels"][k["kernel"]] = row
        out["wrong_merges"] += row["wrong_merges"]
        out["variants"] += row["variants"]
        out["compared"] += row["compared"]
        out["kernels_over_grids"] += row["launch_grids"]
        out["classes_over_grids"] += row["classes_over_grids"]
    return out


def check_cache(folder: str, listing: str):
    """`python -m bitorder check FOLDER --json LISTING` as a user runs it: (the finished process, the kernels it
    listed, [] where it wrote no listing)."""
    p = subprocess.run([sys.executable, "-m", "bitorder", "check", folder, "--json", listing],
                       capture_output=True, text=True)
    return p, (json.load(open(listing))["kernels"] if os.path.exists(listing) else [])


def copied(cache: str, out: str, record: dict) -> dict:
    """`bitorder check` on a copy of the cache while the original is moved away (a cache copied from the GPU machine
    to another, where the paths its TTGIR names do not exist): compare's counts for the copy, and how many of its
    kernels were still classed over Inductor's grids (their modules found under the copy)."""
    copy, away = cache + "-copy", cache + "-away"
    shutil.copytree(cache, copy)
    os.rename(cache, away)
    try:
        p, kernels = check_cache(copy, out + ".copied.classes.json")
    finally:
        os.rename(away, cache)
    got = compare(kernels, record)
    return {"check_exit": p.returncode, **{k: got[k] for k in ("wrong_merges", "compared", "kernels_over_grids",
                                                                "classes_over_grids", "compared_over_grids")}}


def _digest(tensors) -> str:
    h = hashlib.sha256()
    for t in tensors:
        h.update(t.detach().contiguous().view(-1).view(__import__("torch").uint8).cpu().numpy().tobytes())
    return h.hexdigest()


def _wrap_bench(torch):
    from torch._inductor.runtime.triton_heuristics import CachingAutotuner
    original = CachingAutotuner.bench

    def bench(self, launcher, *args, with_profiler=False, **kwargs):
        key = getattr(launcher, "cache_hash", None)
        if key is not None and key not in RECORD:
            try:
                stream = torch.cuda.current_stream().cuda_stream
                digests = []
                self.reset_to_zero_args(*args, **kwargs)   # as bench does: every variant starts from one state
                for _ in range(2):
                    cloned, cloned_kw = self.clone_args(*args, **kwargs)
                    cloned = [a.clone() if isinstance(a, torch.Tensor) else a for a in cloned]   # every tensor
                    launcher(*cloned, **cloned_kw, stream=stream)
                    torch.cuda.synchronize()
                    digests.append(_digest([a for a in cloned if isinstance(a, torch.Tensor)]))
                RECORD[key] = {"kernel": self.inductor_meta.get("kernel_name"), "config": str(launcher.config),
                               "digest": digests[0] if digests[0] == digests[1] else None}
            except Exception as e:   # a launch this script cannot repeat: said, not compared
                RECORD[key] = {"kernel": self.inductor_meta.get("kernel_name"), "config": str(launcher.config),
                               "digest": None, "error": f"{type(e).__name__}: {e}"[:300]}
        return original(self, launcher, *args, with_profiler=with_profiler, **kwargs)
    CachingAutotuner.bench = bench


def main(out: str, pointwise_configs: bool = False) -> int:
    cache = tempfile.mkdtemp()
    os.environ["TORCHINDUCTOR_CACHE_DIR"] = cache
    os.environ["TORCHINDUCTOR_COMPILE_THREADS"] = "1"
    import torch
    import torch._inductor.config as cfg
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from capture_inductor import TOKENS, models
    cfg.compile_threads = 1
    cfg.max_autotune_pointwise = pointwise_configs   # pointwise kernels benched over several XBLOCK too
    _wrap_bench(torch)
    ran = []
    for name, (cls, inputs) in models(torch).items():
        for t in TOKENS:
            torch._dynamo.reset()
            torch.manual_seed(0)
            m = cls().cuda()
            xs = [x * torch.exp2(torch.randint(-4, 5, x.shape, device="cuda")).to(x.dtype)
                  if x.is_floating_point() else x for x in inputs(t)]
            xs = [x.detach().requires_grad_(True) if x.is_floating_point() and name == "cross_entropy" else x
                  for x in xs]
            y = torch.compile(m, dynamic=False)(*xs)
            if name == "cross_entropy":
                y.backward()
            torch.cuda.synchronize()
            ran.append(f"{name}-t{t}")
            print(name, t, len(RECORD), "variants benched so far", flush=True)
    p, kernels = check_cache(cache, out + ".classes.json")
    print(p.stdout[-4000:], p.stderr[-2000:])
    summary = {"device": torch.cuda.get_device_name(), "torch": torch.__version__, "models": ran,
               "max_autotune_pointwise": pointwise_configs,
               "check_exit": p.returncode, "benched_variants": len(RECORD),
               "nondeterministic_or_unrepeated": sum(r["digest"] is None for r in RECORD.values()),
               **compare(kernels, RECORD)}
    summary["kernels_with_several_variants"] = sum(r["variants"] > 1 for r in summary["kernels"].values())
    summary["of_them_one_class"] = sum(r["variants"] > 1 and r["classes"] == 1 for r in summary["kernels"].values())
    summary["copied_cache"] = copied(cache, out, RECORD)
    summary["wrong_merges"] += summary["copied_cache"]["wrong_merges"]
    with open(out, "w") as f:
        json.dump({**summary, "record": RECORD}, f, indent=1)
    print(json.dumps({k: v for k, v in summary.items() if k != "kernels"}))
    ok = p.returncode == 0 and summary["wrong_merges"] == 0 and summary["compared"] > 0 \
        and summary["copied_cache"]["check_exit"] == 0
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[-1], "--pointwise-configs" in sys.argv[1:-1]))
