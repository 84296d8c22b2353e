"""Run the chain and merge kernels under Triton's CPU interpreter (TRITON_INTERPRET=1).

Values are small integers, so every sum is exact in fp16, bf16 and fp32 whatever the
order: the output must equal the exact product (plus the bias), which proves each
product is summed once and the bias added once for every descriptor shape the launcher
takes. The tensor cores' rounding is the H200's to check; the index work is checked here.
Prints one line per failure and exits nonzero if any. (bf16 operands: by hand, see below.)
"""
import itertools
import os
import sys

assert os.environ.get("TRITON_INTERPRET") == "1", "run with TRITON_INTERPRET=1"

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import interpret_shim  # noqa: E402,F401
import torch  # noqa: E402

import bitorder  # noqa: E402
from bitorder.desc import GEMMDesc  # noqa: E402
from bitorder.gemm import launch  # noqa: E402
from mutants import fail  # noqa: E402  (stops at the first FAIL in planted-fault runs)

torch.manual_seed(0)
DT = {"fp16": torch.float16, "bf16": torch.bfloat16}


def operand(rows, cols, trans, batch, dt):
    shape = (cols, rows) if trans else (rows, cols)
    if batch:
        shape = (batch, *shape)
    x = torch.randint(-1, 2, shape).to(dt)
    return x.transpose(-1, -2) if trans else x


def descs(dtype, k):
    yield GEMMDesc("plain", dtype, k, "wgmma", 16)
    yield GEMMDesc("plain", dtype, k, "mma_sync", 16, k_tail="first", k_step=64)
    yield GEMMDesc("plain", dtype, k, "mma_sync", 8, k_tail="first", k_step=32)
    span = max(8, (k // 3 + 7) // 8 * 8)
    if span < k:
        for pd, order in (("fp32", "sequential"), (dtype, "sequential"), (dtype, "serial_added")):
            for instr, ik, tail, step in (("wgmma", 16, "last", None), ("mma_sync", 8, "first", 32)):
                yield GEMMDesc("split_k", dtype, k, instr, ik, k_tail=tail, k_step=step, k_cuts=(span,),
                               partial_dtype=pd, merge_dtype="fp32", merge_order=order)


print(f"bitorder from {bitorder.__file__}")
# ONLY=chain / ONLY=fp8: a planted-fault run's share (the chains on one shape with a short K tile,
# or the fp8 chain alone); unset: everything
ONLY = os.environ.get("KERNELS_ONLY", "")
# CI's share: the first loop on two layouts, its batched split chains on one shape; the TMA tiles'
# bias and route paired with the rest (16 of the 64); all of them by hand
SAMPLE = os.environ.get("KERNELS_SAMPLE") == "1"
failures = 0
# bf16 by hand only (CI's time): the interpreter needs interpret_shim's bf16_dot (it multiplies bf16's raw
# uint16 bits) and bf16_round_to_nearest (it truncates fp32 -> bf16); with both, bf16 runs as fp16 does
interpret_shim.bf16_dot()
interpret_shim.bf16_round_to_nearest()
DTYPES = ("fp16",) if ONLY or SAMPLE else ("fp16", "bf16")
print("operand types", ", ".join(DTYPES))
for dtype, (m, n, k), layout, batch in itertools.product(
        DTYPES, ((5, 7, 40), (70, 33, 150), (16, 64, 97)) if not ONLY else ((70, 33, 150),) if ONLY == "chain" else (),
        ("nn", "tt") if ONLY or SAMPLE else ("nn", "nt", "tn", "tt"), (0, 3)):
    dt = DT[dtype]
    a = operand(m, k, layout[0] == "t", batch, dt)
    b = operand(k, n, layout[1] == "t", batch, dt)
    bias = torch.randint(-2, 3, (n,)).to(dt)
    ref = a.double() @ b.double()
    for d in descs(dtype, k):
        if SAMPLE and batch and d.family == "split_k" and (m, n, k) != (5, 7, 40):
            continue     # (CI: the batched split chains on the smallest shape; every shape unbatched)
        last = d.merge_order == "serial_added" and (not SAMPLE or (m, n, k) == (70, 33, 150))
        for with_bias in (False, True) + (("last",) if last else ()) + (("out",) if d.family == "plain" else ()):
            if with_bias == "last":      # the bias with the last part (algorithm 21's s16816 serial kernels)
                d2, want = d.replace(epilogue=("bias_last", "round")), ref + bias.double()
            elif with_bias == "out":     # the bias to the rounded chain (torch's addmm over nvjet's badd kernels)
                d2, want = d.replace(epilogue=("round", "bias_out")), ref + bias.double()
            elif with_bias:
                d2 = d.replace(epilogue=("round", "bias_out") if d.family == "split_k" and d.merge_order == "sequential"
                               and d.partial_dtype != "fp32" else ("bias_acc", "round"))
                want = ref + bias.double()
            else:
                d2, want = d, ref
            out = launch.run(a, b, d2, bias if with_bias else None)
            if out.shape != want.shape or not torch.equal(out.double(), want):
                failures += 1
                fail(f"FAIL {dtype} {m}x{n}x{k} {layout} batch={batch} bias={with_bias} {d2}")
if not ONLY:     # broadcast B, swizzled tiles, TMA tiles: the full run only
    # a batched A against a broadcast B (stride 0), as torch.matmul's non-foldable 3-D @ 2-D
    a = operand(20, 50, True, 4, torch.float16)
    w = operand(50, 30, False, 0, torch.float16)
    out = launch.run(a, w.unsqueeze(0).expand(4, 50, 30), GEMMDesc("plain", "fp16", 50, "wgmma", 16))
    if not torch.equal(out.double(), a.double() @ w.double()):
        failures += 1
        fail("FAIL broadcast B")
    # many tiles (small blocks): the L2 swizzle's program-to-tile map covers every tile once,
    # with a partial band of tile rows at the bottom (12 rows of tiles: one band of 8, one of 4)
    a = operand(16 * 11 + 3, 40, False, 0, torch.float16)
    b = operand(40, 16 * 3 + 5, False, 0, torch.float16)
    out = launch.run(a, b, GEMMDesc("plain", "fp16", 40, "wgmma", 16), block=(16, 16, 32, 4, 1))
    if not torch.equal(out.double(), a.double() @ b.double()):
        failures += 1
        fail("FAIL swizzled tiles")
    # TMA tiles (launch.chain's tma=True): aligned leading dimensions, every layout, batched, bias,
    # edges in M, N and K (the descriptors' zero fill stands for the masks)
    used, plain_launch = [], launch._launch
    launch._launch = lambda kernel, *args: (used.append(kernel), plain_launch(kernel, *args))[1]
    for (m, n, k), layout, batch, with_bias, tma in itertools.product(((24, 40, 200), (72, 136, 56)), ("nn", "nt", "tn", "tt"),
                                                                   (0, 3), (False, True), (True, "persistent")):
        # CI: one (bias, route) of the four per shape, layout and batch, rotated so that every layout
        # runs both routes unbatched (where the persistent kernel is taken) and bias on and off
        s_, l_, b_ = (m, n, k) != (24, 40, 200), "nn nt tn tt".split().index(layout), batch > 0
        if SAMPLE and (2 * s_ + b_ + l_) % 4 != 2 * (tma == "persistent") + with_bias:
            continue
        a = operand(m, k, layout[0] == "t", batch, torch.float16)
        b = operand(k, n, layout[1] == "t", batch, torch.float16)
        bias = torch.randint(-2, 3, (n,)).to(torch.float16)
        d = GEMMDesc("plain", "fp16", k, "wgmma", 16, epilogue=("bias_acc", "round") if with_bias else ("round",))
        out = launch.run(a, b, d, bias if with_bias else None, block=(64, 32, 32, 4, 2), tma=tma)
        want = a.double() @ b.double() + (bias.double() if with_bias else 0)
        if not torch.equal(out.double(), want):
            failures += 1
            fail(f"FAIL tma={tma} {m}x{n}x{k} {layout} batch={batch} bias={with_bias}")
        expect = launch.chain_tma_persistent_kernel if tma == "persistent" and not batch else launch.chain_tma_kernel
        if used[-1] is not expect:
            failures += 1
            fail(f"FAIL {expect.__name__} not used for {m}x{n}x{k} {layout} batch={batch}")
# the fp8 chain (no scale: the interpreter has no inline asm), whole tiles then the short one or
# TMA tiles, both accumulation modes, swizzled tiles with an edge in M and N (K 208: a short tile)
from bitorder.gemm.kernels_fp8 import chain8_kernel  # noqa: E402
for (m, n, k), promote, tma in itertools.product(((70, 48, 208), (33, 80, 128)) if ONLY != "chain" else (), (0, 64),
                                                 (False, True)):
    a = torch.randint(-2, 3, (m, k)).float().to(torch.float8_e4m3fn)
    b = torch.randint(-2, 3, (n, k)).float().to(torch.float8_e4m3fn).t()
    out = torch.empty((m, n), dtype=torch.float32)
    one = torch.tensor(1.0)
    chain8_kernel[(-(-m // 16) * -(-n // 16),)](a, b, out, out, one, one, m, n, k, a.stride(0), b.stride(1), n,
                                               A_ROW=True, B_ROW=False, PROMOTE=promote, SCALE=0, ROWWISE=False,
                                               HAS_BIAS=False, BLOCK_M=16, BLOCK_N=16, BLOCK_K=64, TMA=tma)
    if not torch.equal(out.double(), a.double() @ b.double()):
        failures += 1
        fail(f"FAIL fp8 {m}x{n}x{k} promote={promote} tma={tma}")
print(f"{failures} failures")
sys.exit(1 if failures else 0)
