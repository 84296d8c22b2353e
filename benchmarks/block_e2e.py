"""One transformer block on the H200 and in the CPU twin, stage by stage (issue 7, GPU).

rmsnorm -> QKV projection -> rotary (q, k) -> scores -> causal softmax -> probs @ v -> output
projection -> residual -> rmsnorm -> gate and up projections -> silu(gate) * up -> down
projection -> residual, in fp16 between stages. On the GPU: bitorder.linear / matmul for the
GEMMs (cuBLAS's bytes), the Triton kernels of block_stages.py (pinned reductions, shared exp,
IEEE division and square root, fp-fusion off) for the rest. In the twin, on this machine's CPU:
bitorder.emulate.replay of each GEMM's plan and block_stages' numpy twins. Every stage's twin
takes the GPU's own inputs to that stage, so a fault in one stage fails that stage and no other.
A stage passes when the twin's bytes equal the GPU's. Writes block_e2e.json.

    python benchmarks/block_e2e.py --out DIR [--tokens 64] [--seed 3]
"""
from __future__ import annotations

import argparse
import json
import math
import os
import sys

import numpy as np
import torch
import triton

sys.path.insert(0, os.path.dirname(__file__))
import block_stages as st  # noqa: E402

import bitorder  # noqa: E402
from bitorder import emulate  # noqa: E402
from bitorder.draws import torch_draw  # noqa: E402

D, H, F = 256, 4, 512
NOFUSE = dict(enable_fp_fusion=False)


def host(x):
    """A CPU numpy copy with the same bits (fp16 stays float16)."""
    return emulate.to_numpy(x.detach().cpu())[0]


def weight(shape, seed, tid):
    return torch_draw(shape, "fp16", seed, tid, "narrow") * (1.0 / math.sqrt(shape[-1]))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--tokens", type=int, default=64)
    ap.add_argument("--seed", type=int, default=3)
    args = ap.parse_args()
    T, s = args.tokens, args.seed
    d, half = D // H, D // H // 2
    x = torch_draw((T, D), "fp16", s, 1, "narrow")
    w1, w2 = (1 + 0.1 * torch_draw((D,), "fp16", s, i, "narrow") for i in (2, 3))
    wqkv, wo = weight((3 * D, D), s, 4), weight((D, D), s, 5)
    wg, wu, wd = weight((F, D), s, 6), weight((F, D), s, 7), weight((D, F), s, 8)
    cos, sin = st.rotary_tables(T, half)
    cos_t, sin_t = torch.from_numpy(cos).cuda(), torch.from_numpy(sin).cuda()
    stages = []

    def check(name, gpu, twin, extra=None):
        got = host(gpu)
        same = got.shape == twin.shape and bool(np.array_equal(np.ascontiguousarray(got).view(np.uint8),
                                                               np.ascontiguousarray(twin).view(np.uint8)))
        stages.append({"stage": name, "identical": same, "shape": list(got.shape), **(extra or {})})
        print(f"{name:10s} {'identical' if same else 'DIFFERENT'}", flush=True)
        return gpu

    def gemm(name, a, b, linear):
        """bitorder's GEMM on the GPU (its bytes against torch's too) and the plan replayed on the CPU."""
        if linear:   # b is the weight (out, in): F.linear
            out, ref, plan = bitorder.linear(a, b), torch.nn.functional.linear(a, b), bitorder.plan(a, b.t())
            twin = emulate.replay(plan.to_json(), host(a), host(b).T) if plan.path == "triton" else None
        else:
            out, ref, plan = bitorder.matmul(a, b), torch.matmul(a, b), bitorder.plan(a, b)
            twin = emulate.replay(plan.to_json(), host(a), host(b)) if plan.path == "triton" else None
        extra = {"plan": str(plan), "equals_torch": bool(torch.equal(out.view(torch.int16), ref.view(torch.int16)))}
        if twin is None:
            stages.append({"stage": name, "identical": None, "why": "cuBLAS fallback: no descriptor to replay", **extra})
            print(f"{name:10s} fallback (not replayed)", flush=True)
            return out
        return check(name, out, twin, extra)

    def rmsnorm(name, inp, w):
        out = torch.empty_like(inp)
        st.rmsnorm_kernel[(T,)](inp, w, out, st.EPS, D=D, **NOFUSE)
        return check(name, out, st.rmsnorm_twin(host(inp), host(w)))

    def add(name, a, b):
        out = torch.empty_like(a)
        st.add_kernel[(triton.cdiv(a.numel(), 1024),)](a, b, out, a.numel(), B=1024, **NOFUSE)
        return check(name, out, st.add_twin(host(a), host(b)))

    h1 = rmsnorm("rmsnorm1", x, w1)
    qkv = gemm("qkv", h1, wqkv, True)
    q, k, v = (qkv[:, i * D:(i + 1) * D].reshape(T, H, d).contiguous() for i in range(3))
    rot = []
    for name, t in (("rotary_q", q), ("rotary_k", k)):
        out = torch.empty_like(t)
        st.rotary_kernel[(T,)](t, cos_t, sin_t, out, H=H, HALF=half, **NOFUSE)
        rot.append(check(name, out, st.rotary_twin(host(t), cos, sin)))
    qh, kt, vh = rot[0].transpose(0, 1).contiguous(), rot[1].permute(1, 2, 0).contiguous(), v.transpose(0, 1).contiguous()
    scores = gemm("scores", qh, kt, False)
    probs = torch.empty_like(scores)
    scale = 1.0 / math.sqrt(d)
    st.softmax_kernel[(H * T,)](scores, probs, scale, T=T, **NOFUSE)
    check("softmax", probs, st.softmax_twin(host(scores), np.float32(scale)))
    attn = gemm("attn_v", probs, vh, False)
    o = gemm("o_proj", attn.transpose(0, 1).reshape(T, D).contiguous(), wo, True)
    x2 = add("residual1", x, o)
    h2 = rmsnorm("rmsnorm2", x2, w2)
    g, u = gemm("gate", h2, wg, True), gemm("up", h2, wu, True)
    a = torch.empty_like(g)
    st.silu_mul_kernel[(triton.cdiv(g.numel(), 1024),)](g, u, a, g.numel(), B=1024, **NOFUSE)
    check("silu_mul", a, st.silu_mul_twin(host(g), host(u)))
    dn = gemm("down", a, wd, True)
    add("residual2", x2, dn)
    res = {"device": torch.cuda.get_device_name(), "tokens": T, "d_model": D, "heads": H, "mlp": F,
           "stages": stages, "all_identical": all(r["identical"] for r in stages if r["identical"] is not None),
           "fallback_stages": [r["stage"] for r in stages if r["identical"] is None],
           "stages_file": st.__file__}
    with open(os.path.join(args.out, "block_e2e.json"), "w") as f:
        json.dump(res, f, indent=1)
    print(json.dumps({k: res[k] for k in ("all_identical", "stages_file")}))
    return 0 if res["all_identical"] else 1


if __name__ == "__main__":
    sys.exit(main())
