"""Capture the Triton kernels TorchInductor writes for real model pieces (GPU), for the checker's
corpus (issue 5: at least 10 TorchInductor kernels captured on the H200).

Small models built from torch.nn pieces the way open-weight models write them (a Llama-style
RMSNorm + SwiGLU MLP block, a GPT-2-style LayerNorm + GELU MLP block, an attention-probability
softmax with its mask and scale, a cross-entropy loss forward and backward) are compiled with
torch.compile in this process and run once at token counts typical of serving. TorchInductor's
output code (every generated kernel's source with its triton_meta, and the `call` function that
shows each launch's numel arguments and grid) is copied from its cache into OUT/inductor/, one
folder per model and token count, with an index. The CPU side (the corpus adapter,
benchmarks/corpus/inductor.py) reads the kernels back from a copy of that folder and index in
benchmarks/corpus/inductor_capture/. Writes inductor_capture.json and inductor.tgz (the sources).

    python benchmarks/capture_inductor.py --out DIR
"""
from __future__ import annotations

import argparse
import glob
import json
import os
import re
import shutil
import sys
import tarfile
import tempfile

TOKENS = (8, 512)


def models(torch):
    nn = torch.nn

    class RMSNorm(nn.Module):
        def __init__(self, d):
            super().__init__()
            self.w = nn.Parameter(torch.ones(d))

        def forward(self, x):
            return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6) * self.w

    class LlamaMLP(nn.Module):
        def __init__(self, d=1024, f=2816):
            super().__init__()
            self.norm, self.gate, self.up, self.down = RMSNorm(d), nn.Linear(d, f, False), nn.Linear(d, f, False), \
                nn.Linear(f, d, False)

        def forward(self, x):
            h = self.norm(x)
            return x + self.down(torch.nn.functional.silu(self.gate(h)) * self.up(h))

    class GPT2MLP(nn.Module):
        def __init__(self, d=768):
            super().__init__()
            self.ln, self.fc, self.proj = nn.LayerNorm(d), nn.Linear(d, 4 * d), nn.Linear(4 * d, d)

        def forward(self, x):
            return x + self.proj(torch.nn.functional.gelu(self.fc(self.ln(x)), approximate="tanh"))

    class AttnProbs(nn.Module):
        def forward(self, s):
            t = s.shape[-1]
            mask = torch.ones(t, t, device=s.device, dtype=torch.bool).tril()
            return torch.softmax((s * 0.125).masked_fill(~mask, float("-inf")), dim=-1)

    class Loss(nn.Module):
        def forward(self, logits, target):
            return torch.nn.functional.cross_entropy(logits, target)

    return {"llama_mlp": (LlamaMLP, lambda t: [torch.randn(t, 1024, device="cuda")]),
            "gpt2_mlp": (GPT2MLP, lambda t: [torch.randn(t, 768, device="cuda")]),
            "attn_probs": (AttnProbs, lambda t: [torch.randn(8, min(t, 256), min(t, 256), device="cuda")]),
            "cross_entropy": (Loss, lambda t: [torch.randn(t, 32000, device="cuda", requires_grad=True),
                                               torch.randint(0, 32000, (t,), device="cuda")])}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    cache = tempfile.mkdtemp()
    os.environ["TORCHINDUCTOR_CACHE_DIR"] = cache
    os.environ["TORCHINDUCTOR_COMPILE_THREADS"] = "1"
    import torch
    import torch._inductor.config as cfg

    cfg.compile_threads = 1
    dest = os.path.join(args.out, "inductor")
    os.makedirs(dest, exist_ok=True)
    index, seen = [], set()
    for name, (cls, inputs) in models(torch).items():
        for t in TOKENS:
            torch._dynamo.reset()
            torch.manual_seed(0)
            m = cls().cuda()
            f = torch.compile(m, dynamic=False)
            xs = inputs(t)
            y = f(*xs)
            if name == "cross_entropy":
                y.backward()         # the backward kernels too
            torch.cuda.synchronize()
            new = [p for p in glob.glob(os.path.join(cache, "**", "*.py"), recursive=True) if p not in seen]
            seen.update(new)
            folder = os.path.join(dest, f"{name}-t{t}")
            os.makedirs(folder, exist_ok=True)
            kernels = []
            for p in new:
                text = open(p).read()
                if "@triton.jit" not in text and "async_compile.triton(" not in text:
                    continue
                shutil.copy(p, folder)
                kernels += re.findall(r"def (triton_\w+)\(", text)
            index.append({"model": name, "tokens": t, "folder": os.path.relpath(folder, args.out),
                          "kernels": sorted(set(kernels))})
            print(name, t, len(set(kernels)), "kernels", flush=True)
    with open(os.path.join(args.out, "inductor_capture.json"), "w") as f:
        json.dump({"device": torch.cuda.get_device_name(), "torch": torch.__version__, "captures": index,
                   "distinct_kernels": len({k for i in index for k in i["kernels"]})}, f, indent=1)
    with tarfile.open(os.path.join(args.out, "inductor.tgz"), "w:gz") as tar:
        tar.add(dest, arcname="inductor")
    return 0


if __name__ == "__main__":
    sys.exit(main())
