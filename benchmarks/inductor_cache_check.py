"""`bitorder check DIR` on TorchInductor's cache after torch.compile autotuned real model pieces (issue 5, GPU):
which generated kernels' autotune configurations the checker proves bitwise-equal, and, for every variant the
autotuner ran, whether its class mates returned identical bytes.

    PYTHONPATH=src python benchmarks/inductor_cache_check.py [--pointwise-configs] [--dynamic | --dynamic-batch] OUT.json
                                                                                                          (a CUDA GPU)

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
the same check on a copy of the cache with the original moved away, as on a machine the cache was copied to.
--dynamic (2026-12-06c) compiles each model once with torch.compile(dynamic=True), so Inductor's kernels take xnumel
as a parameter, and runs it at every token count of DYN_TOKENS (the two MLPs' backward too): the first call autotunes (its digests as above), and
at every later call each kernel's benched variants are launched again on clones of that call's arguments, each over
the grid its launcher computes from them, their digests kept by call ("sizes"): a class whose members differ at any
call is a wrong merge too (`bitorder check` classes such variants over super-blocks only where each stores nothing
past the programs a launch runs: check.tritoncache.dynamic_frames). --dynamic-batch is the same with only the
token dimensions dynamic (torch._dynamo.maybe_mark_dynamic on them, the rest of each shape static, as a server marks its
batch): the hidden and vocabulary sizes stay baked in, so reductions keep their constant-trip loops."""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile

RECORD: dict = {}      # cache folder name -> {"kernel", "config", "digest" or None (nondeterministic), "sizes"}
LAUNCHERS: dict = {}   # id(autotuner) -> (the autotuner, {cache folder name: launcher}): every variant it benched
CALL = {"tag": None, "count": {}}   # --dynamic: the model call running ("t37"), and calls per autotuner in it
DYN_TOKENS = (300, 37, 512, 1000, 77)


def compare(kernels: list, record: dict) -> dict:
    """Per kernel group of `bitorder check --json`, against RECORD: variants, classes, variants with bytes,
    true classes among them, and wrong merges (a recorded member whose digest differs from its class's first)."""
    out = {"kernels": {}, "wrong_merges": 0, "variants": 0, "compared": 0, "kernels_over_grids": 0,
           "classes_over_grids": 0, "compared_over_grids": 0, "compared_calls": 0}
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
        for c in k["classes"]:   # --dynamic: every later call's digests, member against member
            sizes = [record[os.path.basename(f)].get("sizes", {}) for f in c["folders"]
                     if os.path.basename(f) in record and record[os.path.basename(f)]["digest"]]
            for tag in {t for s in sizes for t in s}:
                got = [s[tag] for s in sizes if s.get(tag)]
                out["compared_calls"] += len(got)
                row["wrong_merges"] += len(set(got)) > 1
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


def _launch_twice(torch, autotuner, launcher, args, kwargs):
    """The digest of every tensor argument after launching `launcher` on clones of the arguments, twice from one
    state (as CachingAutotuner.bench starts each variant); None where the two launches differ."""
    stream = torch.cuda.current_stream().cuda_stream
    digests = []
    autotuner.reset_to_zero_args(*args, **kwargs)   # as bench does: every variant starts from one state
    for _ in range(2):
        cloned, cloned_kw = autotuner.clone_args(*args, **kwargs)
        cloned = [a.clone() if isinstance(a, torch.Tensor) else a for a in cloned]   # every tensor
        launcher(*cloned, **cloned_kw, stream=stream)
        torch.cuda.synchronize()
        digests.append(_digest([a for a in cloned if isinstance(a, torch.Tensor)]))
    return digests[0] if digests[0] == digests[1] else None


def _wrap_bench(torch):
    from torch._inductor.runtime.triton_heuristics import CachingAutotuner
    original = CachingAutotuner.bench

    def bench(self, launcher, *args, with_profiler=False, **kwargs):
        key = getattr(launcher, "cache_hash", None)
        if key is not None and key not in RECORD:
            LAUNCHERS.setdefault(id(self), (self, {}))[1][key] = launcher
            try:
                RECORD[key] = {"kernel": self.inductor_meta.get("kernel_name"), "config": str(launcher.config),
                               "digest": _launch_twice(torch, self, launcher, args, kwargs)}
            except Exception as e:   # a launch this script cannot repeat: said, not compared
                RECORD[key] = {"kernel": self.inductor_meta.get("kernel_name"), "config": str(launcher.config),
                               "digest": None, "error": f"{type(e).__name__}: {e}"[:300]}
        return original(self, launcher, *args, with_profiler=with_profiler, **kwargs)
    CachingAutotuner.bench = bench


def _wrap_run(torch):
    """--dynamic: at every call of an autotuned kernel after its first, each variant it benched launched again on
    clones of this call's arguments (its launcher computes the grid from them), digests kept by call."""
    from torch._inductor.runtime.triton_heuristics import CachingAutotuner
    original = CachingAutotuner.run

    def run(self, *args, stream, **kwargs):
        seen = LAUNCHERS.get(id(self))
        if seen is not None and seen[0] is self and len(seen[1]) > 1 and CALL["tag"] is not None:
            n = CALL["count"][id(self)] = CALL["count"].get(id(self), 0) + 1
            tag = f"{CALL['tag']}#{n}"
            for key, launcher in seen[1].items():
                rec = RECORD.get(key)
                if rec is None or rec["digest"] is None:
                    continue
                try:
                    rec.setdefault("sizes", {})[tag] = _launch_twice(torch, self, launcher, args, kwargs)
                except Exception as e:   # said, not compared
                    rec.setdefault("size_errors", {})[tag] = f"{type(e).__name__}: {e}"[:300]
        return original(self, *args, stream=stream, **kwargs)
    CachingAutotuner.run = run


def main(out: str, pointwise_configs: bool = False, dynamic: bool = False, batch_only: bool = False) -> int:
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
    if dynamic:
        _wrap_run(torch)
    ran = []
    for name, (cls, inputs) in models(torch).items():
        compiled = None
        for t in DYN_TOKENS if dynamic else TOKENS:
            if compiled is None or not dynamic:   # dynamic: one compile a model, called at every token count
                torch._dynamo.reset()
                torch.manual_seed(0)
                m = cls().cuda()
                compiled = torch.compile(m, dynamic=None if batch_only else dynamic)
            xs = [x * torch.exp2(torch.randint(-4, 5, x.shape, device="cuda")).to(x.dtype)
                  if x.is_floating_point() else x for x in inputs(t)]
            if batch_only:   # the token dimensions alone (attention probabilities: its two t x t dimensions)
                for x in xs:
                    for d in ((1, 2) if name == "attn_probs" else (0,)):
                        torch._dynamo.maybe_mark_dynamic(x, d)   # (a loss may specialise its batch)
            xs = [x.detach().requires_grad_(True) if x.is_floating_point() and name == "cross_entropy" else x
                  for x in xs]
            CALL["tag"] = f"{name}-t{t}"
            y = compiled(*xs)
            if name == "cross_entropy":
                y.backward()
            elif dynamic and name in ("llama_mlp", "gpt2_mlp"):   # their backward kernels autotuned and compared too
                y.sum().backward()
            torch.cuda.synchronize()
            CALL["tag"] = None
            ran.append(f"{name}-t{t}")
            print(name, t, len(RECORD), "variants benched so far", flush=True)
    p, kernels = check_cache(cache, out + ".classes.json")
    print(p.stdout[-4000:], p.stderr[-2000:])
    summary = {"device": torch.cuda.get_device_name(), "torch": torch.__version__, "models": ran,
               "max_autotune_pointwise": pointwise_configs, "dynamic": "batch" if batch_only else dynamic,
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
    flags = sys.argv[1:-1]
    sys.exit(main(sys.argv[-1], "--pointwise-configs" in flags, "--dynamic" in flags or "--dynamic-batch" in flags,
                  "--dynamic-batch" in flags))
