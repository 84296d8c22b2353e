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
