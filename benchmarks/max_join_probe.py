"""Whether PTX max.f16 and max.bf16 are joins on the H200, over every pair of 16-bit inputs (2^32 each).

The checker keys a max tree as the set it joins (symbolic._JOIN) only where the instruction is one function of
the set, whatever the order and grouping. That holds when max(a, b) equals, for every pair, the join of a total
order: -0 below +0, a NaN below everything (the other operand returned) and two NaNs giving one canonical NaN.
A commutative function equal to that join on all pairs is associative too, so one pass over the pairs decides it.
Each pair is run in both orders through inline PTX (not tl.maximum, whose lowering could change) and compared, bit
for bit, with the reference computed in the same kernel from the operands' bits.

    python benchmarks/max_join_probe.py --out DIR

Run on the H200 2026-12-03f (benchmarks/results/2026-12-03f-gpu call 5): both are joins, 0 of 2^32 pairs each. The
checker does not join them yet: row_max_f16's trees also fold an f16 max into an f32 max through cvt.f32.f16, which
needs max.f32 of two NaNs to be one NaN whatever their payloads (not probed). This probe's own planted fault (a
reference with -0 above +0 must report wrong pairs) has not been run.
"""
from __future__ import annotations

import argparse
import json
import os

import torch
import triton
import triton.language as tl


@triton.jit
def _key(x):
    """A total order on 16-bit floats as signed integers: -0 below +0, every NaN below -inf."""
    x = x.to(tl.int32)
    mag = x & 0x7FFF
    nan = mag > 0x7C00
    k = tl.where((x & 0x8000) != 0, -mag - 1, mag)
    return tl.where(nan, -0x10000, k), nan


@triton.jit
def _pairs(bad_ptr, sample_ptr, BF16: tl.constexpr, BLOCK: tl.constexpr):
    a = tl.program_id(0)                                  # one a per program, every b across the block loop
    wrong = tl.zeros([BLOCK], tl.int32)
    for b0 in range(0, 65536, BLOCK):
        b = b0 + tl.arange(0, BLOCK)
        av = tl.full([BLOCK], a, tl.int32).to(tl.int16)
        bv = b.to(tl.int16)
        if BF16:
            x, y = av.to(tl.bfloat16, bitcast=True), bv.to(tl.bfloat16, bitcast=True)
            ab = tl.inline_asm_elementwise("max.bf16 $0, $1, $2;", "=h,h,h", [x, y], tl.bfloat16, True, 1)
            ba = tl.inline_asm_elementwise("max.bf16 $0, $1, $2;", "=h,h,h", [y, x], tl.bfloat16, True, 1)
            canon = 0x7FFF
        else:
            x, y = av.to(tl.float16, bitcast=True), bv.to(tl.float16, bitcast=True)
            ab = tl.inline_asm_elementwise("max.f16 $0, $1, $2;", "=h,h,h", [x, y], tl.float16, True, 1)
            ba = tl.inline_asm_elementwise("max.f16 $0, $1, $2;", "=h,h,h", [y, x], tl.float16, True, 1)
            canon = 0x7FFF
        abi = ab.to(tl.int16, bitcast=True).to(tl.int32) & 0xFFFF
        bai = ba.to(tl.int16, bitcast=True).to(tl.int32) & 0xFFFF
        ai, bi = av.to(tl.int32) & 0xFFFF, bv.to(tl.int32) & 0xFFFF
        ka, na = _key(ai)
        kb, nb = _key(bi)
        ref = tl.where(na & nb, canon, tl.where(ka >= kb, ai, bi))
        if BF16:
            mag_a, mag_b = ai & 0x7FFF, bi & 0x7FFF
            na = mag_a > 0x7F80
            nb = mag_b > 0x7F80
            ka = tl.where(na, -0x10000, tl.where((ai & 0x8000) != 0, -mag_a - 1, mag_a))
            kb = tl.where(nb, -0x10000, tl.where((bi & 0x8000) != 0, -mag_b - 1, mag_b))
            ref = tl.where(na & nb, canon, tl.where(ka >= kb, ai, bi))
        bad = (abi != bai) | (abi != ref)
        wrong += bad.to(tl.int32)
        # keep one example per program: the last bad b (or -1)
        ex = tl.max(tl.where(bad, b, -1), 0)
        tl.store(sample_ptr + a, tl.maximum(tl.load(sample_ptr + a), ex))
    tl.store(bad_ptr + a, tl.sum(wrong, 0))


def probe(bf16: bool) -> dict:
    bad = torch.zeros(65536, dtype=torch.int32, device="cuda")
    sample = torch.full((65536,), -1, dtype=torch.int32, device="cuda")
    k = _pairs[(65536,)](bad, sample, BF16=bf16, BLOCK=1024, num_warps=4)
    torch.cuda.synchronize()
    rows = torch.nonzero(bad).flatten().tolist()
    ops = sorted({ln.split()[0] for ln in k.asm["ptx"].splitlines() if ln.strip().startswith("max.")})
    examples = [(hex(a), hex(sample[a].item())) for a in rows[:8]]
    return {"op": "max.bf16" if bf16 else "max.f16", "ptx_ops": ops, "pairs": 65536 * 65536,
            "wrong_pairs": int(bad.sum().item()), "examples_a_b": examples, "join": not rows}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    out = {"device": torch.cuda.get_device_name(), "results": [probe(False), probe(True)]}
    json.dump(out, open(os.path.join(a.out, "max_join.json"), "w"), indent=1)
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
