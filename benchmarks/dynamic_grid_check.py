"""`bitorder check DIR` on TorchInductor-style kernels compiled for dynamic shapes (issue 5, GPU): variants of other
XBLOCK are classed together over super-blocks only where each stores nothing past the programs a launch runs
(check.tritoncache.dynamic_frames, signature.stores_past_end); every class's members must return identical bytes at
every xnumel, each launched over its own grid, cdiv(xnumel, XBLOCK).

    PYTHONPATH=src python benchmarks/dynamic_grid_check.py OUT.json      (a CUDA GPU)

MODULE holds four kernels as Inductor writes a dynamic-shape kernel (Grid1D, xnumel a parameter): a masked pointwise
one, its twin with the mask dropped (a launch stores up to its last program's end: XBLOCK 128 and 512 return other
bytes at most xnumel, while their super-block signatures agree), one whose mask lets x = xnumel through, and a
persistent row sum (xnumel rows of 256). Each is compiled by Triton's own launch into a fresh TRITON_CACHE_DIR at
every (XBLOCK, num_warps) of VARIANTS and launched at every size of SIZES (ROWS for the row sum; Triton compiles
a size divisible by 16, and 1, apart, so each kernel has up to three groups of variants), two draws each (one with
NaNs, infinities and signed zeros), into an output buffer longer than any launch reaches, pre-filled alike; the
digest is of the whole buffer. `python -m bitorder check` then classes the cache as a user would. A class whose
members' digests differ at any size and draw is a wrong merge (exit 1). Planted fault: scripts/gpu-run
mutant-dynamic-grid (stores_past_end answering "nothing past the launch" always) must merge the unmasked variants.
"""
from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import subprocess
import sys
import tempfile

MODULE = '''
import triton
import triton.language as tl


def pointwise(**kwargs):   # torch._inductor.runtime.triton_heuristics.pointwise, as far as its module reads
    return lambda fn: fn


@pointwise(size_hints={'x': 4096}, inductor_meta={'grid_type': 'Grid1D', 'kernel_name': 'triton_poi_fused_relu_0'})
@triton.jit
def triton_poi_fused_relu_0(in_ptr0, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    # written under %s
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    tmp0 = tl.load(in_ptr0 + (xindex), xmask)
    tmp1 = tl.maximum(tmp0, 0.0) * 3.0
    tl.store(out_ptr0 + (xindex), tmp1, xmask)


@pointwise(size_hints={'x': 4096}, inductor_meta={'grid_type': 'Grid1D', 'kernel_name': 'triton_poi_unmasked_0'})
@triton.jit
def triton_poi_unmasked_0(in_ptr0, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    # written under %s
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    tmp0 = tl.load(in_ptr0 + (xindex))
    tmp1 = tl.maximum(tmp0, 0.0) * 3.0
    tl.store(out_ptr0 + (xindex), tmp1)


@pointwise(size_hints={'x': 4096}, inductor_meta={'grid_type': 'Grid1D', 'kernel_name': 'triton_poi_slack_0'})
@triton.jit
def triton_poi_slack_0(in_ptr0, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    # written under %s
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel + 1
    tmp0 = tl.load(in_ptr0 + (xindex), xmask)
    tl.store(out_ptr0 + (xindex), tmp0, xmask)


@pointwise(size_hints={'x': 64, 'r0_': 256}, inductor_meta={'grid_type': 'Grid1D', 'kernel_name': 'triton_per_sum_0'})
@triton.jit
def triton_per_sum_0(in_ptr0, out_ptr0, xnumel, r0_numel, XBLOCK : tl.constexpr):
    # written under %s
    R0_BLOCK: tl.constexpr = 256
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    tmp0 = tl.load(in_ptr0 + (r0_index + 256 * xindex), xmask, other=0.0)
    tmp1 = tl.sum(tmp0, 1)[:, None]
    tl.store(out_ptr0 + (xindex), tmp1, xmask)
'''
KERNELS = ("triton_poi_fused_relu_0", "triton_poi_unmasked_0", "triton_poi_slack_0", "triton_per_sum_0")
POINTWISE = [(16, 1), (32, 1), (128, 1), (128, 4), (256, 4), (512, 4), (512, 8), (1024, 8)]   # 16: past 32 programs of 1024
VARIANTS = {"triton_poi_fused_relu_0": POINTWISE, "triton_poi_unmasked_0": POINTWISE, "triton_poi_slack_0": POINTWISE,
            "triton_per_sum_0": [(1, 1), (2, 1), (4, 1), (8, 1), (2, 2), (4, 4), (8, 8)]}
SIZES = (1, 2, 7, 100, 127, 128, 129, 255, 256, 257, 500, 511, 512, 513, 1000, 1023, 1024, 1025, 1537, 2048, 4095,
         4096, 5000, 65536, 100003)
ROWS = (1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 33, 64, 65, 100, 1000)
DRAWS = 2


def write_module(root: str):
    """MODULE written under `root` (each body names the folder: Triton keys its compile cache by the text) and
    imported."""
    path = os.path.join(root, "cdynamic.py")
    with open(path, "w") as f:
        f.write(MODULE % ((root,) * len(KERNELS)))
    spec = importlib.util.spec_from_file_location(f"cdynamic_{abs(hash(root))}", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _draw(torch, n: int, seed: int, special: bool):
    """n floats over a wide range (2^-30 .. 2^30 in magnitude), with NaNs, infinities and signed zeros where special."""
    g = torch.Generator(device="cuda").manual_seed(seed)
    x = torch.randn(n, device="cuda", generator=g) * torch.exp2(
        torch.randint(-30, 31, (n,), device="cuda", generator=g).float())
    if special:
        pick = torch.randint(0, 16, (n,), device="cuda", generator=g)
        for k, v in enumerate((float("nan"), float("inf"), -float("inf"), 0.0, -0.0)):
            x = torch.where(pick == k, torch.full_like(x, v), x)
    return x


def launch_all(torch, mod) -> dict:
    """Every kernel at every variant, size and draw: {cache folder name: {"kernel", "variant", "digests": {"N/d":
    sha256 of the output buffer}}}."""
    record: dict = {}
    for name in KERNELS:
        fn = getattr(mod, name)
        rows = name == "triton_per_sum_0"
        sizes = ROWS if rows else SIZES
        pad = (max(sizes) // 1024 + 2) * 1024            # past the last element any launch reaches
        for n in sizes:
            for d in range(DRAWS):
                x = _draw(torch, pad * (256 if rows else 1), 1000 * n + d, special=d == 1)
                for xblock, warps in VARIANTS[name]:
                    out = torch.empty(pad, device="cuda", dtype=torch.float32).view(torch.int32).fill_(0x7FC0DEAD) \
                        .view(torch.float32)
                    grid = (-(-n // xblock),)
                    args = (x, out, n, 256) if rows else (x, out, n)
                    kernel = fn[grid](*args, XBLOCK=xblock, num_warps=warps)
                    torch.cuda.synchronize()
                    digest = hashlib.sha256(out.view(torch.uint8).cpu().numpy().tobytes()).hexdigest()
                    rec = record.setdefault(kernel.hash, {"kernel": name, "variant": f"XBLOCK={xblock} warps={warps}",
                                                          "digests": {}})
                    rec["digests"][f"{n}/{d}"] = digest
    return record


def by_folder(cache: str, record: dict) -> dict:
    """launch_all's record keyed by the cache folder each compile went to (its metadata's "hash" is the launch's
    CompiledKernel.hash; the folder's name is not)."""
    out = {}
    for root, _, files in os.walk(cache):
        for f in files:
            if f.endswith(".json") and not f.startswith("__grp__"):
                try:
                    h = json.load(open(os.path.join(root, f))).get("hash")
                except (OSError, ValueError, AttributeError):
                    continue
                if h in record:
                    out[os.path.basename(root)] = record[h]
    return out


def compare(kernels: list, record: dict) -> dict:
    """Per kernel group of `bitorder check --json`: variants, checker classes, true classes (variants grouped by
    their digests at every size and draw), classes over other grids, and wrong merges (a class whose members'
    digests differ at some size and draw)."""
    out = {"kernels": {}, "wrong_merges": 0, "compared_launches": 0, "classes_over_grids": 0, "variants": 0}
    for k in kernels:
        recs = [[record.get(os.path.basename(f)) for f in c["folders"]] for c in k["classes"]]
        truth = {json.dumps(r["digests"], sort_keys=True) for c in recs for r in c if r}
        row = {"variants": k["variants"], "classes": len(k["classes"]), "true_classes": len(truth),
               "wrong_merges": 0, "classes_over_grids": 0,
               "members": [[f"{r['variant']}" if r else "?" for r in c] for c in recs]}
        for c, members in zip(k["classes"], recs):
            got = [r for r in members if r]
            if len({m.split("grid=")[-1] for m in c["members"] if "grid=" in m}) > 1:
                row["classes_over_grids"] += 1
            for key in got[0]["digests"] if got else ():
                digests = [r["digests"].get(key) for r in got]
                out["compared_launches"] += len(digests)
                row["wrong_merges"] += len(set(digests)) > 1
        out["kernels"][k["kernel"]] = row
        out["wrong_merges"] += row["wrong_merges"]
        out["classes_over_grids"] += row["classes_over_grids"]
        out["variants"] += row["variants"]
    return out


def main(out: str) -> int:
    root = tempfile.mkdtemp()
    cache = os.path.join(root, "triton")
    os.environ["TRITON_CACHE_DIR"] = cache    # before Triton reads it: this run's compiles alone
    import torch
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src"))
    from bitorder.check import tritoncache
    from bitorder.check.signature import stores_past_end
    record = by_folder(cache, launch_all(torch, write_module(root)))
    listing = out + ".classes.json"
    p = subprocess.run([sys.executable, "-m", "bitorder", "check", cache, "--json", listing, "--explain"],
                       capture_output=True, text=True)
    print(p.stdout[-6000:], p.stderr[-2000:])
    kernels = json.load(open(listing))["kernels"] if os.path.exists(listing) else []
    summary = {"device": torch.cuda.get_device_name(), "torch": torch.__version__, "check_exit": p.returncode,
               "launches": sum(len(r["digests"]) for r in record.values()), **compare(kernels, record)}
    # which variants the rule lets meet over super-blocks (stores nothing past the launch), read as the worker reads it
    past = {}
    for group, variants in tritoncache.read(cache)[0].items():
        for v in variants:
            if isinstance(v.grid, tritoncache.DynamicGrid):
                past[v.folder.name] = stores_past_end(v.asm, v.grid.param, v.grid.xblock)
    summary["stores_past_end"] = {f"{record[k]['kernel']} {record[k]['variant']} ({k[:8]})": v
                                  for k, v in sorted(past.items()) if k in record}
    with open(out, "w") as f:
        json.dump({**summary, "record": record}, f, indent=1)
    print(json.dumps({k: v for k, v in summary.items() if k not in ("kernels", "stores_past_end")}))
    for k, row in summary["kernels"].items():
        print(f"{row['wrong_merges']} wrong merges, {row['classes']} classes / {row['true_classes']} true, "
              f"{row['classes_over_grids']} over grids: {k.split()[0]} {row['members']}")
    ok = p.returncode == 0 and summary["wrong_merges"] == 0 and summary["compared_launches"] > 0 \
        and summary["classes_over_grids"] > 0
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[-1]))
