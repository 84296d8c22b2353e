"""The fp8 chain's PIPE option (kernels_fp8.chain8_tile: the K loop warp-specialized; fp8.run's and
run_split's `pipe`) under Triton's CPU interpreter (TRITON_INTERPRET=1): the same bytes as PIPE off.

The interpreter runs the source's dots and adds in the source's order and ignores the warp
specialization itself (which only schedules them on sm_90), so this checks what the PIPE source
path computes, not the GPU's schedule (the H200 bench compares PIPE's bytes with torch's). Each case
runs PIPE off and on, and both against a reference of the descriptor's own steps:

- plain chains (chain8_kernel with SCALE 0, fp32 out: the interpreter has no inline asm), both
  accumulation modes, pointer and TMA tiles, K below 128, not a multiple of 128, several tiles;
  the promoting reference is each promotion interval's exact partial (float64) added into an fp32
  accumulator in K order, one round-to-nearest fp32 add each;
- the split path (fp8.run_split: part8_kernel + merge8_kernel) against the twin (emulate.replay).

The operands make every chain exact on both the interpreter's dot and the tensor core (as
interpret_fp8_split.py: a small integer times one power of two per operand within a block, a
block per promotion interval or per part), blocks 2^16 to 2^24 apart in scale and mostly followed
by a cancelling copy, so an interval moved, merged with its neighbour or added out of order changes
the bits. Prints one line per failure, exits nonzero if any.
"""
import itertools
import os
import sys

assert os.environ.get("TRITON_INTERPRET") == "1", "run with TRITON_INTERPRET=1"
os.environ["BITORDER_UNVERIFIED"] = "1"   # the fp8 entries are candidates until the H200 gate

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import interpret_shim  # noqa: E402
import numpy as np  # noqa: E402
import torch  # noqa: E402

import bitorder  # noqa: E402
from bitorder import emulate  # noqa: E402
from bitorder.cublas.profile import ArchProfile  # noqa: E402
from bitorder.gemm import fp8  # noqa: E402
from bitorder.gemm.kernels_fp8 import chain8_kernel  # noqa: E402
from mutants import fail  # noqa: E402  (stops at the first FAIL in planted-fault runs)

interpret_shim.bf16_round_to_nearest()
QUICK = os.environ.get("FP8_PIPE_QUICK") == "1"   # the planted-fault runs: a subset
OUT = {"bf16": torch.bfloat16, "fp16": torch.float16, "fp32": torch.float32}
INTS = {2: torch.int16, 4: torch.int32}


def blocks_of(k, promote, parts=((0, None),)):
    """The K ranges that each hold one exact block: promotion intervals from each part's start
    (promote > 0), or whole parts."""
    for s, e in parts:
        e = k if e is None else e
        step = promote or (e - s)
        yield from ((x, min(x + step, e)) for x in range(s, e, step))


def operands(k, m, n, ranges, rng):
    """a (m, k) row-major and b (k, n) column-major fp8 (e4m3), one exact block per range."""
    a = torch.zeros(m, k, dtype=torch.float64)
    w = torch.zeros(n, k, dtype=torch.float64)
    ranges = list(ranges)
    high, copy_next = rng.random() < 0.5, False
    for j, (s, e) in enumerate(ranges):
        s0, e0 = ranges[j - 1] if j else (0, 0)
        if copy_next and e0 - s0 >= e - s and rng.random() < 0.75:
            a[:, s0 + e - s:e0] = 0
            a[:, s:e], w[:, s:e] = -a[:, s0:s0 + e - s], w[:, s0:s0 + e - s]
            copy_next = False
            continue
        high = not high
        copy_next = high
        ex = int(rng.integers(8, 13) if high else rng.integers(-12, -7))
        ea = int(rng.integers(max(-6, ex - 6), min(6, ex + 6) + 1))
        cols = torch.from_numpy(rng.random((n, 1)) < 0.5)
        a[:, s:e] = torch.from_numpy(rng.integers(-2, 3, (m, e - s)).astype(np.float64)) * 2.0 ** ea
        w[:, s:e] = torch.from_numpy(rng.integers(-1, 2, (n, e - s)).astype(np.float64)) * 2.0 ** (ex - ea) * cols
    return a.to(torch.float8_e4m3fn), w.to(torch.float8_e4m3fn).t()


def promoted(a, b, k, promote):
    """The promoting chain's steps: exact interval partials added into fp32 in K order."""
    a64, b64 = a.double(), b.double()
    acc = np.zeros((a.shape[0], b.shape[1]), dtype=np.float32)
    for s, e in blocks_of(k, promote):
        acc = (acc + (a64[:, s:e] @ b64[s:e]).numpy().astype(np.float32)).astype(np.float32)
    return torch.from_numpy(acc)


def plain(a, b, promote, pipe, tma, block):
    m, k = a.shape
    n = b.shape[1]
    bm, bn, bk, warps, stages = block
    out = torch.empty((m, n), dtype=torch.float32)
    one = torch.tensor(1.0)
    chain8_kernel[(-(-m // bm) * -(-n // bn),)](a, b, out, out, one, one, m, n, k, a.stride(0), b.stride(1), n,
                                               A_ROW=True, B_ROW=False, PROMOTE=promote, SCALE=0, ROWWISE=False,
                                               HAS_BIAS=False, BLOCK_M=bm, BLOCK_N=bn,
                                               BLOCK_K=promote or bk, TMA=tma, PIPE=pipe,
                                               num_warps=warps, num_stages=stages)
    return out


def same(x, y):
    return x.shape == y.shape and torch.equal(x.view(INTS[x.element_size()]), y.view(INTS[y.element_size()]))


print(f"bitorder from {bitorder.__file__}")
rng = np.random.default_rng(20261202)
failures = cases = 0
# plain chains: K below 128, a multiple of it, and not; tiles of 128 rows (where fp8.run applies
# PIPE) and small ones; pointer and TMA tiles
ks = (48, 208, 400) if QUICK else (16, 48, 128, 208, 400, 656, 1040)
tiles = ((128, 32, 64, 4, 2),) if QUICK else ((128, 32, 64, 4, 2), (16, 16, 64, 4, 1), (64, 64, 128, 4, 2))
for k, promote, tma, block in itertools.product(ks, (128, 0), (False, True), tiles):
    m, n = ((5, 24), (33, 40), (130, 48))[cases % 3]
    cases += 1
    a, b = operands(k, m, n, blocks_of(k, promote), rng)
    off = plain(a, b, promote, False, tma, block)
    on = plain(a, b, promote, True, tma, block)
    want = promoted(a, b, k, promote) if promote else off
    if not same(on, off) or not same(off, want):
        failures += 1
        fail(f"FAIL plain {m}x{n}x{k} promote={promote} tma={tma} block={block}: PIPE on/off "
             f"{int((on != off).sum())}, off/reference {int((off != want).sum())} of {m * n} elements differ")

# the split path through fp8.run (run_split): both modes, each output type, parts starting on and
# off the promotion intervals, the default tile and small ones, pointer and TMA tiles
splits = ((272, 3), (1040, 5)) if QUICK else ((272, 3), (400, 5), (1040, 5), (1552, 7), (2000, 3))
for (k, split), fast, out in itertools.product(splits, (False, True), ("bf16", "fp32") if QUICK else tuple(OUT)):
    answer = {"algo_id": 66, "stages": "64x4", "split_k": split, "reduction_scheme": 2}
    desc = ArchProfile.load().describe(answer, k, "e4m3", False, fast, out_dtype=out)
    if desc is None or desc.family != "split_k" or fp8.split_gap(desc):
        failures += 1
        fail(f"FAIL no split descriptor for K={k} split_k={split}: {desc}")
        continue
    m, n = ((5, 24), (33, 40))[cases % 2]
    block = (None, (16, 16, 256 if fast else 128, 4, 1), (128, 32, 128, 4, 2))[cases % 3]
    tma = (None, False, True)[cases % 3]
    cases += 1
    ranges = [r for s, e in desc.outer_parts() for r in blocks_of(e, 0 if fast else desc.promotion, ((s, e),))]
    a, b = operands(k, m, n, ranges, rng)
    sa = torch.tensor(0.37 + (cases % 7) / 10, dtype=torch.float32)
    sb = torch.tensor(1.7000001 if cases % 2 else -0.3000001, dtype=torch.float32)
    off = fp8.run(a, b, sa, sb, desc, None, OUT[out], block=block, tma=tma, pipe=False)
    on = fp8.run(a, b, sa, sb, desc, None, OUT[out], block=block, tma=tma, pipe=True)
    want = emulate.replay(desc, a, b, None, sa, sb, out)
    if not same(on, off) or not same(off, want):
        failures += 1
        fail(f"FAIL split {m}x{n}x{k} split_k={split} fast={fast} {out} block={block} tma={tma}: PIPE on/off "
             f"{int((on.float() != off.float()).sum())}, off/twin {int((off.float() != want.float()).sum())} elements differ")
print(f"{cases} cases, {failures} failures")
sys.exit(1 if failures else 0)
