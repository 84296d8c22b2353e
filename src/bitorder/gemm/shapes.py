"""The shapes the GEMM gates run: realistic model layers and the seeded fuzz.

A Case is one call: op (mm, bmm, linear, linear_bias), dtype, M, N, K, batch and
the operand layouts ("n" row-major, "t" a transposed view of a row-major tensor).
"""
from __future__ import annotations

import math
import random
from dataclasses import asdict, dataclass

# (hidden, q_dim, kv_dim, intermediate, vocab, gated MLP) from each model's published config.json
MODELS = {
    "llama-3-8b": (4096, 4096, 1024, 14336, 128256, True),
    "llama-3-70b": (8192, 8192, 1024, 28672, 128256, True),
    "llama-2-13b": (5120, 5120, 5120, 13824, 32000, True),
    "mistral-7b": (4096, 4096, 1024, 14336, 32000, True),
    "mixtral-8x7b-expert": (4096, 4096, 1024, 14336, 32000, True),
    "qwen2.5-7b": (3584, 3584, 512, 18944, 152064, True),
    "qwen2.5-72b": (8192, 8192, 1024, 29568, 152064, True),
    "gemma-2-9b": (3584, 4096, 2048, 14336, 256000, True),
    "phi-3-mini": (3072, 3072, 3072, 8192, 32064, True),
    "falcon-7b": (4544, 4544, 64, 18176, 65024, False),
    "gpt2": (768, 768, 768, 3072, 50257, False),
    "opt-6.7b": (4096, 4096, 4096, 16384, 50272, False),
    "tinyllama-1.1b": (2048, 2048, 256, 5632, 32000, True),
    "deepseek-v2-lite-dense": (2048, 2048, 2048, 10944, 102400, True),
}
TOKENS = (1, 2, 8, 32, 128, 512, 2048, 8192)


@dataclass(frozen=True)
class Case:
    op: str          # mm | bmm | linear | linear_bias
    dtype: str       # fp16 | bf16
    m: int
    n: int
    k: int
    batch: int = 1
    layout: str = "nn"  # A then B: n = row-major, t = transposed view
    group: str = "fuzz"

    @property
    def flops(self) -> float:
        return 2.0 * self.batch * self.m * self.n * self.k

    def to_dict(self) -> dict:
        return asdict(self)


def model_layers(name: str):
    """(layer, N, K) of one transformer block and the vocabulary projection: y = x @ W^T with W (N, K)."""
    h, q, kv, inter, vocab, gated = MODELS[name]
    return [("qkv", q + 2 * kv, h), ("o_proj", h, q), ("gate_up" if gated else "up", (2 if gated else 1) * inter, h),
            ("down", h, inter), ("lm_head", vocab, h)]


def realistic(dtype: str, tokens=TOKENS, op: str = "linear") -> list[Case]:
    """Every model layer times every token count, as F.linear calls (B is W^T, a transposed view)."""
    return [Case(op, dtype, t, n, k, layout="nt", group=f"{model}:{layer}")
            for model in MODELS for layer, n, k in model_layers(model) for t in tokens]


def _log_uniform(rng: random.Random, lo: int, hi: int) -> int:
    return max(lo, min(hi, int(math.exp(rng.uniform(math.log(lo), math.log(hi + 1))))))


def fuzz(dtype: str, count: int, seed: int, max_mn: int = 16384, max_k: int = 65536, deep_k: int = 1 << 20,
         deep_fraction: float = 0.06, misaligned_fraction: float = 0.25, batched_fraction: float = 0.12,
         max_elements: int = 1 << 31) -> list[Case]:
    """The issue's fuzz distribution: M, N log-uniform in [1, max_mn], K in [1, max_k] (deep_fraction
    up to deep_k), a share with a dimension not a multiple of 8, all four layouts, a batched share.

    Aligned draws round M, N, K to multiples of 8; a case whose operands would exceed
    max_elements is redrawn (device memory, not the distribution, is the limit).
    """
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        # the kind of case is drawn once; a draw too big for memory is redrawn within its kind,
        # so the deep, misaligned and batched shares are the ones asked for
        deep = rng.random() < deep_fraction
        aligned = rng.random() >= misaligned_fraction
        batched = rng.random() < batched_fraction
        while True:
            m, n = _log_uniform(rng, 1, max_mn), _log_uniform(rng, 1, max_mn)
            k = _log_uniform(rng, 1, deep_k if deep else max_k)
            if aligned:
                m, n, k = (max(8, (x + 7) // 8 * 8) for x in (m, n, k))
            batch = _log_uniform(rng, 2, 64) if batched else 1
            if batch * (m * k + k * n + m * n) <= max_elements:
                break
        op = "bmm" if batched else rng.choice(("mm", "mm", "linear_bias"))
        layout = rng.choice(("nn", "nt", "tn", "tt"))
        out.append(Case(op, dtype, m, n, k, batch, layout, "fuzz-deep" if deep else "fuzz"))
    return out


@dataclass(frozen=True)
class FP8Case:
    """One torch._scaled_mm call: a (m, k) row-major e4m3, b (k, n) column-major e4m3 (b = w.t()
    of a row-major (n, k) w: layout "nt" in Case's letters), out bf16/fp16/fp32, tensor-wise or
    row-wise fp32 scales, an optional bias of the output type."""

    m: int
    n: int
    k: int
    fast_accum: bool
    out: str
    scaling: str = "tensor"
    bias: bool = False
    group: str = "fuzz"
    batch: int = 1           # (the gates' dealing reads batch, m, n, k)
    dtype: str = "e4m3"
    op: str = "scaled_mm"
    layout: str = "nt"

    @property
    def flops(self) -> float:
        return 2.0 * self.m * self.n * self.k

    def to_dict(self) -> dict:
        return asdict(self)


# torch._scaled_mm shapes the H200's heuristic split (benchmarks/results/2026-11-30-components).
FP8_KNOWN_SPLITS = ((64, 64, 8192), (16, 128, 65536))


def fp8_split_fuzz(count: int, seed: int, max_m: int = 256, max_n: int = 1024, min_k: int = 1024,
                   max_k: int = 65536, shallow_k: int = 8192) -> list[FP8Case]:
    """Tensor-wise torch._scaled_mm calls likely to get a split-K answer (small M * N, deep K):
    M log-uniform in [1, max_m], N and K multiples of 16 (torch's rule), N log-uniform in
    [16, max_n], K log-uniform in [min_k, shallow_k] for half the cases (what the CPU fit can
    replay) and up to max_k for the rest, K mod 256 left free so the span granules differ;
    use_fast_accum, out type and a bias (a third of bf16/fp16) drawn per case. The known split
    shapes come first, in every (use_fast_accum, out) pair. Which cases cuBLASLt really splits
    only the GPU can say (survey --fp8 asks the heuristic and keeps split_k > 1)."""
    rng = random.Random(seed)
    pairs = [(f, o) for f in (True, False) for o in ("bf16", "fp16", "fp32")]
    cases = [FP8Case(m, n, k, f, o, group="known-split") for m, n, k in FP8_KNOWN_SPLITS for f, o in pairs]
    while len(cases) < count:
        m = _log_uniform(rng, 1, max_m)
        n = max(16, _log_uniform(rng, 16, max_n) // 16 * 16)
        k = max(min_k, _log_uniform(rng, min_k, shallow_k if rng.random() < 0.5 else max_k) // 16 * 16)
        fast, out = rng.choice(pairs)
        cases.append(FP8Case(m, n, k, fast, out, bias=out != "fp32" and rng.random() < 1 / 3, group="split-fuzz"))
    return cases[:count]
