"""The fp8 split-K path (fp8.run_split: part8_kernel, merge8_kernel) under Triton's CPU interpreter
(TRITON_INTERPRET=1), byte for byte against the twin (bitorder.emulate.replay) on the same
descriptors, which come from the arch profile's fp8 split entry (BITORDER_UNVERIFIED=1).

What the interpreter can and cannot check. Its tl.dot on fp8 converts to fp16 and runs numpy's
fp32 matmul: it does not model the wgmma k32 step (truncation to 13 fraction bits below the
step's largest exponent). So the operands are drawn so that every chain the descriptor runs
(a promotion interval, or a whole part with fast accumulation) is exact on both: within one
block (a part, or a promotion interval) every value is a small integer times one power of two
per operand (a: {-2..2} * 2^ea, b: {-1, 0, 1} * 2^eb, ea and eb in [-6, 6]), so every running
sum is an integer multiple of 2^(ea+eb) below 2^13 of them, which the tensor-core model keeps
exactly (K <= 2000: a part holds at most 1024 products). Everything between chains is then
inexact and checked to the bit: the round-to-nearest promotion adds, where each part and each
interval starts and ends (blocks differ in scale by 2^16 to 2^24, so a product moved to another
chain changes the rounding), the fp32 merge of the parts in order, the scale product and where
it applies, the bias, the one rounding to bf16/fp16/fp32. The k32 step's own truncation (and
the real wgmma, TMA and pipelining on sm_90) is the H200 gate's to check.

bf16 outputs: the interpreter truncates fp32 -> bf16; interpret_shim.bf16_round_to_nearest makes
it round to nearest even, as the GPU's cvt.rn does. Prints one line per failure, exits nonzero if any.
"""
import dataclasses
import itertools
import os
import sys

assert os.environ.get("TRITON_INTERPRET") == "1", "run with TRITON_INTERPRET=1"
os.environ["BITORDER_UNVERIFIED"] = "1"   # the split entry is a candidate until the H200 gate

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import interpret_shim  # noqa: E402
import numpy as np  # noqa: E402
import torch  # noqa: E402

import bitorder  # noqa: E402
from bitorder import emulate  # noqa: E402
from bitorder.cublas.profile import ArchProfile  # noqa: E402
from bitorder.gemm import fp8  # noqa: E402
from mutants import fail  # noqa: E402  (stops at the first FAIL in planted-fault runs)

interpret_shim.bf16_round_to_nearest()
OUT = {"bf16": torch.bfloat16, "fp16": torch.float16, "fp32": torch.float32}
INTS = {2: torch.int16, 4: torch.int32}
QUICK = os.environ.get("FP8_SPLIT_QUICK") == "1"   # the planted-fault runs: a subset


def segments(desc):
    """The K ranges each holding one chain from zero: promotion intervals from each part's start,
    or whole parts (fast accumulation)."""
    for s, e in desc.outer_parts():
        step = desc.promotion or (e - s)
        yield from ((x, min(x + step, e)) for x in range(s, e, step))


def operands(desc, m, n, rng):
    """a (m, K) and b (K, n) as described above, one draw per part or, for promoting chains, per
    promotion interval (half the cases each). Fresh blocks alternate between small and large
    products (2^16 to 2^24 apart); a large block is mostly followed by its negated copy (the gate's
    cancelling draw; the copied block cut to the copy's length), so that where a small block
    meets the cancelling pair decides the bits ((s + B) - B is not (-B + B) + s). Each output
    column takes a random half of the fresh blocks (b zero elsewhere): many patterns per case."""
    a = torch.zeros(m, desc.k, dtype=torch.float64)
    w = torch.zeros(n, desc.k, dtype=torch.float64)
    blocks = list(desc.outer_parts() if desc.promotion is None or rng.random() < 0.5 else segments(desc))
    high = rng.random() < 0.5
    copy_next = False
    for j, (s, e) in enumerate(blocks):
        s0, e0 = blocks[j - 1] if j else (0, 0)
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
    return a.to(torch.float8_e4m3fn), w.to(torch.float8_e4m3fn).t()   # b column-major, as torch's


def describe(k, split, fast, out, bias):
    answer = {"algo_id": 66, "stages": "64x4", "split_k": split, "reduction_scheme": 2}
    return ArchProfile.load().describe(answer, k, "e4m3", bias, fast, out_dtype=out)


def reversed_merge(desc, a, b, bias, sa, sb, out):
    """The twin's own parts and epilogue with the parts summed last to first (a sensitivity check)."""
    from bitorder.emulate.gemm import _reduce_levels, add_rn
    a64, b64 = (torch.from_numpy(emulate.to_numpy(x)[0].astype(np.float64)).numpy() for x in (a, b))
    parts = _reduce_levels(a64, b64, desc, 0, desc.k, 0)[::-1]
    acc = parts[0]
    for p in parts[1:]:
        acc = add_rn(acc, p)
    bias_np = None if bias is None else emulate.to_numpy(bias)[0]
    res = emulate.epilogue(acc, desc, out, bias_np, sa.numpy(), sb.numpy())
    return torch.from_numpy(np.ascontiguousarray(res).view({2: np.int16, 4: np.int32}[res.itemsize])).view(OUT[out])


def compare(desc, m, n, out, with_bias, block, tma, label):
    """fp8.run against the twin on one fresh draw; counts and reports a failure. Returns the draw."""
    global failures
    a, b = operands(desc, m, n, rng)
    sa = torch.tensor(0.37 + (cases % 7) / 10, dtype=torch.float32)
    sb = torch.tensor(1.7000001 if cases % 2 else -0.3000001, dtype=torch.float32)
    bias = (torch.randn(n, dtype=torch.float64) * 2.0 ** float(rng.integers(-8, 12))).to(OUT[out]) if with_bias else None
    got = fp8.run(a, b, sa, sb, desc, bias, OUT[out], block=block, tma=tma)
    want = emulate.replay(desc, a, b, bias, sa, sb, out)
    if got.shape != want.shape or not torch.equal(got.view(INTS[got.element_size()]),
                                                  want.view(INTS[want.element_size()])):
        failures += 1
        bad = int((got.view(INTS[got.element_size()]) != want.view(INTS[want.element_size()])).sum())
        fail(f"FAIL {m}x{n}x{desc.k} {label} {out} bias={with_bias} block={block} tma={tma}: "
             f"{bad} of {m * n} elements differ; {desc}")
    return a, b, bias, sa, sb, want


print(f"bitorder from {bitorder.__file__} (BITORDER_FP8_PAIRS {fp8.FP8_PAIRS})")
rng = np.random.default_rng(20261201)
failures = cases = 0
told, merges = dict.fromkeys(OUT, 0), dict.fromkeys(OUT, 0)
shapes = ((5, 24), (33, 40))
SAMPLE = os.environ.get("FP8_SPLIT_SAMPLE") == "1"   # CI's share: 120 of the 300 problems (all by hand)
ks = (272, 400, 1040) if QUICK else (272, 400, 1040, 2000) if SAMPLE else (272, 400, 1040, 1552, 2000)
splits = (3, 5) if QUICK else (3, 5, 7) if SAMPLE else (2, 3, 4, 5, 6, 7)
# the quick subset's (K, split) pairs first, with the same draws as a quick run: a sample or full run
# reports the planted-fault runs' cases on the tree under test on the way (one run, not two)
QUICK_PAIRS = list(itertools.product((272, 400, 1040), (3, 5)))
PAIRS = QUICK_PAIRS + [p for p in itertools.product(ks, splits) if p not in QUICK_PAIRS and not QUICK]
PLAIN = os.environ.get("FP8_SPLIT_PLAIN", "")   # "1": the plain promoting chain too (below); "only": it alone
quick_told = False
for (k, split), fast, out, with_bias in itertools.product(PAIRS if PLAIN != "only" else (), (False, True),
                                                          ("bf16", "fp16", "fp32"), (False, True)):
    if not quick_told and (k, split) not in QUICK_PAIRS:
        quick_told = print(f"the quick subset: {cases} cases, {failures} failures") or True
    if with_bias and out == "fp32":
        continue   # torch rejects a bias with fp32 outputs
    if fast and fp8.FP8_PAIRS:
        continue   # (CI time) pairs change promoting chains only: fast ones run as without them
    desc = describe(k, split, fast, out, with_bias)
    if desc is None or desc.family != "split_k" or fp8.split_gap(desc):
        failures += 1
        fail(f"FAIL no split descriptor for K={k} split_k={split}: {desc}")
        continue
    m, n = shapes[cases % 2]
    # the default tile, or small tiles (many programs; fast chains 256 deep, so a tile crosses a
    # part's end and must stop there), by pointers or by TMA
    block = None if cases % 3 == 0 else (16, 16, 256 if fast else 128, 4, 1)
    tma = (None, False, True)[cases % 3]
    cases += 1
    a, b, bias, sa, sb, want = compare(desc, m, n, out, with_bias, block, tma, f"split_k={split} fast={fast}")
    if desc.parts >= 3:   # do the draws tell merge orders apart? (the twin's steps alone, no kernel)
        rev = reversed_merge(desc, a, b, bias, sa, sb, out)
        told[out] += not torch.equal(rev.view(INTS[rev.element_size()]), want.view(INTS[want.element_size()]))
        merges[out] += 1
# FP8_SPLIT_PLAIN=1 (or only): the plain promoting chain too (one part, a fresh chain every 128 of K: what
# BITORDER_FP8_PAIRS changes on the plain path), odd and even interval counts, a short last tile; its
# fp32 accumulator unscaled (SCALE 0: the scales are inline asm, which the interpreter lacks)
from bitorder.gemm.kernels_fp8 import chain8_kernel, chain8_persistent_kernel  # noqa: E402


def designed(k, m, n):
    """Intervals s, B, -B, s (s = 2^-18 a product, B = 2^15 an interval): the chain's adds in order,
    ((s + B) - B) + s, give s; pairs added first (s + B) + (-B + s) give 0. The random draws' blocks
    are too close in scale to tell these apart."""
    a = torch.zeros(m, k)
    w = torch.ones(n, k)
    a[:, 0], a[:, 128:256], a[:, 256:384], a[:, 384] = 2.0 ** -9, 256.0, -256.0, 2.0 ** -9
    w[:, 0], w[:, 384] = 2.0 ** -9, 2.0 ** -9
    return a.to(torch.float8_e4m3fn), w.to(torch.float8_e4m3fn).t()


plain = persistent = 0
for k, bm, tma in itertools.product((512,) + ks if PLAIN in ("1", "only") else (), (16, 32),
                                    (False, True)):
    desc = describe(k, 1, False, "fp32", False)
    if desc is None or desc.family != "plain" or not desc.promotion:
        failures += 1
        fail(f"FAIL no plain promoting descriptor for K={k}: {desc}")
        continue
    desc = dataclasses.replace(desc, epilogue=("round",))
    m, n = shapes[plain % 2]
    plain += 1
    a, b = designed(k, m, n) if k == 512 else operands(desc, m, n, rng)
    got = torch.empty((m, n), dtype=torch.float32)
    one = torch.tensor(1.0)
    chain8_kernel[(-(-m // bm) * -(-n // bm),)](a, b, got, got, one, one, m, n, k, a.stride(0), b.stride(1), n,
                                                A_ROW=True, B_ROW=False, PROMOTE=desc.promotion, SCALE=0,
                                                ROWWISE=False, HAS_BIAS=False, BLOCK_M=bm, BLOCK_N=bm,
                                                BLOCK_K=desc.promotion, TMA=tma, PAIRS=fp8.FP8_PAIRS)
    want = emulate.replay(desc, a, b, None, one, one, "fp32")
    if not torch.equal(got.view(torch.int32), want.view(torch.int32)):
        failures += 1
        fail(f"FAIL plain {m}x{n}x{k} block {bm} tma={tma} pairs={fp8.FP8_PAIRS}: "
             f"{int((got.view(torch.int32) != want.view(torch.int32)).sum())} of {m * n} elements differ")
    if tma:   # BITORDER_FP8_PERSISTENT's kernel: two programs walk every tile (TMA tiles only)
        got = torch.empty((m, n), dtype=torch.float32)
        chain8_persistent_kernel[(2,)](a, b, got, got, one, one, m, n, k, a.stride(0), b.stride(1), n,
                                       PROMOTE=desc.promotion, SCALE=0, ROWWISE=False, HAS_BIAS=False, BLOCK_M=bm,
                                       BLOCK_N=bm, BLOCK_K=desc.promotion, PROGRAMS=2)
        persistent += 1
        if not torch.equal(got.view(torch.int32), want.view(torch.int32)):
            failures += 1
            fail(f"FAIL persistent {m}x{n}x{k} block {bm}: "
                 f"{int((got.view(torch.int32) != want.view(torch.int32)).sum())} of {m * n} elements differ")
if not quick_told:
    print(f"the quick subset: {cases} cases, {failures} failures")
print(f"{plain} plain cases, {persistent} of them also persistent")
print("the parts merged in reverse order differ from the twin's in " +
      ", ".join(f"{told[o]} of {merges[o]} {o}" for o in OUT) + " cases of 3 or more parts")
print(f"{cases} cases, {failures} failures")
sys.exit(1 if failures else 0)
