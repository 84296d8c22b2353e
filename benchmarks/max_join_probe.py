"""Whether PTX max is a join on the H200, and whether widening carries the 16-bit join into the 32-bit one.

The checker keys a max tree as the set it joins (symbolic._JOIN) only where the instruction is one function of
the set, whatever the order and grouping. That holds when max(a, b) equals, for every pair, the join of a total
order: -0 below +0, a NaN below everything (the other operand returned) and two NaNs giving one canonical NaN.
A commutative function equal to that join on all pairs is associative too, so one pass over the pairs decides it.
Each pair is run in both orders through inline PTX (not tl.maximum, whose lowering could change) and compared, bit
for bit, with the reference computed in the same kernel from the operands' bits. Five probes of 2^32 pairs each:
  - max.f16 and max.bf16: every pair of 16-bit patterns;
  - max.f32: 2^16 patterns (every top half: all signs, exponents and NaN classes; low halves zero or hashed, so
    payloads, zeros and infinities), every pair of them;
  - the fold symbolic.Nodes._widen uses: cvt.f32.f16(max.f16(a, b)) = max.f32(cvt.f32.f16(a), cvt.f32.f16(b)) on
    every pair, and the same for bf16. With the three joins, it makes a widened 16-bit max tree the f32 max tree
    of its widened members (LLVM narrows an f32 max of widened halves into a half max);
  - abs.f16 / abs.bf16 against the sign bit cleared (and.b16 x, 0x7FFF, what LLVM writes at some sizes), bare,
    widened, and under a 16-bit max widened against the f32 max of the masked members (row_absmax's two forms),
    each counted apart.
--fault runs each probe again with a planted fault (a wrong canonical NaN in the references; -0 read as +0 on
the fold's wide side; the sign kept by the mask): each must report wrong pairs.

    python benchmarks/max_join_probe.py --out DIR [--fault] [--only TEXT]

Run on the H200 2026-12-03f (benchmarks/results/2026-12-03f-gpu call 5, the two 16-bit joins only, no fault
run): both are joins, 0 of 2^32 pairs each. 2026-12-03g call 1 (every probe, abs counted as one): the three joins
hold (max.f32's sampled NaN pairs included) and so does the f16 fold; the bf16 fold fails on exactly the 254^2 pairs
of two NaNs (cvt.f32.bf16 of the canonical 0x7FFF is 0x7FFF0000, max.f32 of two NaNs 0x7FFFFFFF); abs.f16 / abs.bf16
of a NaN is not its sign cleared (bare, 2044 of 2046 f16 NaNs differ); every planted fault reported wrong pairs.
"""
from __future__ import annotations

import argparse
import json
import os

import torch
import triton
import triton.language as tl


@triton.jit
def _key(x, BF16: tl.constexpr):
    """A total order on 16-bit floats (f16, or bf16 with BF16) as signed integers: -0 below +0, every NaN below
    -inf; and whether x is a NaN."""
    x = x.to(tl.int32)
    mag = x & 0x7FFF
    nan = mag > (0x7F80 if BF16 else 0x7C00)
    k = tl.where((x & 0x8000) != 0, -mag - 1, mag)
    return tl.where(nan, -0x10000, k), nan


@triton.jit
def _operands(a, b, BF16: tl.constexpr, BLOCK: tl.constexpr):
    """The 16-bit patterns a (the program's one) and b (a block of them) as int16, and as f16 or bf16 values."""
    av = tl.full([BLOCK], a, tl.int32).to(tl.int16)
    bv = b.to(tl.int16)
    if BF16:
        x, y = av.to(tl.bfloat16, bitcast=True), bv.to(tl.bfloat16, bitcast=True)
    else:
        x, y = av.to(tl.float16, bitcast=True), bv.to(tl.float16, bitcast=True)
    return av, bv, x, y


@triton.jit
def _tally(wrong, bad, b, sample_ptr, a):
    """wrong plus this block's bad pairs; the program's sample keeps the largest bad b (-1 while there is none)."""
    ex = tl.max(tl.where(bad, b, -1), 0)
    tl.store(sample_ptr + a, tl.maximum(tl.load(sample_ptr + a), ex))
    return wrong + bad.to(tl.int32)


@triton.jit
def _pairs(bad_ptr, sample_ptr, BF16: tl.constexpr, BLOCK: tl.constexpr, FAULT: tl.constexpr):
    a = tl.program_id(0)                                  # one a per program, every b across the block loop
    wrong = tl.zeros([BLOCK], tl.int32)
    for b0 in range(0, 65536, BLOCK):
        b = b0 + tl.arange(0, BLOCK)
        av, bv, x, y = _operands(a, b, BF16, BLOCK)
        if BF16:
            ab = tl.inline_asm_elementwise("max.bf16 $0, $1, $2;", "=h,h,h", [x, y], tl.bfloat16, True, 1)
            ba = tl.inline_asm_elementwise("max.bf16 $0, $1, $2;", "=h,h,h", [y, x], tl.bfloat16, True, 1)
            canon = 0x7FFF if not FAULT else 0x7FC0
        else:
            ab = tl.inline_asm_elementwise("max.f16 $0, $1, $2;", "=h,h,h", [x, y], tl.float16, True, 1)
            ba = tl.inline_asm_elementwise("max.f16 $0, $1, $2;", "=h,h,h", [y, x], tl.float16, True, 1)
            canon = 0x7FFF if not FAULT else 0x7E00    # (the planted fault: a wrong canonical NaN)
        abi = ab.to(tl.int16, bitcast=True).to(tl.int32) & 0xFFFF
        bai = ba.to(tl.int16, bitcast=True).to(tl.int32) & 0xFFFF
        ai, bi = av.to(tl.int32) & 0xFFFF, bv.to(tl.int32) & 0xFFFF
        ka, na = _key(ai, BF16)
        kb, nb = _key(bi, BF16)
        ref = tl.where(na & nb, canon, tl.where(ka >= kb, ai, bi))
        bad = (abi != bai) | (abi != ref)
        wrong = _tally(wrong, bad, b, sample_ptr, a)
    tl.store(bad_ptr + a, tl.sum(wrong, 0))


@triton.jit
def _fold(bad_ptr, sample_ptr, BF16: tl.constexpr, BLOCK: tl.constexpr, FAULT: tl.constexpr):
    """cvt.f32(max16(a, b)) against max.f32(cvt.f32(a), cvt.f32(b)), bit for bit, for one a and every b."""
    a = tl.program_id(0)
    wrong = tl.zeros([BLOCK], tl.int32)
    for b0 in range(0, 65536, BLOCK):
        b = b0 + tl.arange(0, BLOCK)
        _, _, x, y = _operands(a, b, BF16, BLOCK)
        if BF16:
            narrow = tl.inline_asm_elementwise("{ .reg .b16 m; max.bf16 m, $1, $2; cvt.f32.bf16 $0, m; }", "=r,h,h",
                                               [x, y], tl.float32, True, 1)
            wide = tl.inline_asm_elementwise("{ .reg .f32 p, q; cvt.f32.bf16 p, $1; cvt.f32.bf16 q, $2; "
                                             "max.f32 $0, p, q; }", "=r,h,h", [x, y], tl.float32, True, 1)
        else:
            narrow = tl.inline_asm_elementwise("{ .reg .b16 m; max.f16 m, $1, $2; cvt.f32.f16 $0, m; }", "=r,h,h",
                                               [x, y], tl.float32, True, 1)
            wide = tl.inline_asm_elementwise("{ .reg .f32 p, q; cvt.f32.f16 p, $1; cvt.f32.f16 q, $2; "
                                             "max.f32 $0, p, q; }", "=r,h,h", [x, y], tl.float32, True, 1)
        if FAULT:   # the planted fault: the wide side's -0 read as +0
            wide = tl.where(wide == 0.0, 0.0, wide)
        bad = narrow.to(tl.int32, bitcast=True) != wide.to(tl.int32, bitcast=True)
        wrong = _tally(wrong, bad, b, sample_ptr, a)
    tl.store(bad_ptr + a, tl.sum(wrong, 0))


def _abs_asm(bf16: bool, fault: bool) -> dict:
    """_absfold's five inline PTX texts for f16 or bf16 (the planted fault keeps the sign in the mask)."""
    t, mask = ("bf16" if bf16 else "f16"), ("0xFFFF" if fault else "0x7FFF")
    return dict(NARROW=f"{{ .reg .b16 p, q, m; abs.{t} p, $1; abs.{t} q, $2; max.{t} m, p, q; cvt.f32.{t} $0, m; }}",
                WIDE=f"{{ .reg .b16 p, q; .reg .f32 u, v; and.b16 p, $1, {mask}; and.b16 q, $2, {mask}; "
                     f"cvt.f32.{t} u, p; cvt.f32.{t} v, q; max.f32 $0, u, v; }}",
                ONE=f"{{ .reg .b16 p; abs.{t} p, $1; cvt.f32.{t} $0, p; }}",
                ONE_AND=f"{{ .reg .b16 p; and.b16 p, $1, {mask}; cvt.f32.{t} $0, p; }}",
                BARE=f"abs.{t} $0, $1;")


@triton.jit
def _absfold(bad_ptr, sample_ptr, BF16: tl.constexpr, BLOCK: tl.constexpr, FAULT: tl.constexpr, CHECK: tl.constexpr,
             NARROW: tl.constexpr, WIDE: tl.constexpr, ONE: tl.constexpr, ONE_AND: tl.constexpr, BARE: tl.constexpr):
    """row_absmax's two forms: cvt.f32(max16(abs a, abs b)) against max.f32(cvt.f32(a & 0x7FFF), cvt.f32(b & 0x7FFF));
    and, for b alone, abs16 b against b & 0x7FFF, bare and widened (_abs_asm's texts). One a, every b."""
    a = tl.program_id(0)
    wrong = tl.zeros([BLOCK], tl.int32)
    for b0 in range(0, 65536, BLOCK):
        b = b0 + tl.arange(0, BLOCK)
        _, _, x, y = _operands(a, b, BF16, BLOCK)
        bare = tl.inline_asm_elementwise(BARE, "=h,h", [y], y.dtype, True, 1)
        narrow = tl.inline_asm_elementwise(NARROW, "=r,h,h", [x, y], tl.float32, True, 1)
        wide = tl.inline_asm_elementwise(WIDE, "=r,h,h", [x, y], tl.float32, True, 1)
        one = tl.inline_asm_elementwise(ONE, "=r,h", [y], tl.float32, True, 1)
        one_and = tl.inline_asm_elementwise(ONE_AND, "=r,h", [y], tl.float32, True, 1)
        bare_i = bare.to(tl.int16, bitcast=True).to(tl.int32) & 0xFFFF
        if CHECK == 0:     # bare (the planted fault: against b with its sign)
            bad = bare_i != ((b & 0x7FFF) if not FAULT else b)
        elif CHECK == 1:   # widened alone
            bad = one.to(tl.int32, bitcast=True) != one_and.to(tl.int32, bitcast=True)
        else:              # under a 16-bit max, widened, against the f32 max of the masked members widened
            bad = narrow.to(tl.int32, bitcast=True) != wide.to(tl.int32, bitcast=True)
        wrong = _tally(wrong, bad, b, sample_ptr, a)
    tl.store(bad_ptr + a, tl.sum(wrong, 0))


@triton.jit
def _f32_value(i):
    """A 32-bit pattern per 16-bit index: the index as the top half (every sign, exponent and NaN class),
    the low half zero for one index in 8 (zeros, infinities, the quiet NaNs 0x7FC00000 / 0xFFC00000,
    0x7FFF0000) and a hash of the index otherwise (payloads, subnormals)."""
    low = ((i * 40503) ^ (i >> 3) ^ 0x5A5A) & 0xFFFF
    return (i << 16) | tl.where((i & 7) == 0, 0, low)


@triton.jit
def _pairs32(bad_ptr, sample_ptr, BLOCK: tl.constexpr, FAULT: tl.constexpr):
    """max.f32 against the join (NaN below everything, two NaNs the canonical 0x7FFFFFFF, -0 below +0) in both
    operand orders, over 2^32 pairs of _f32_value patterns."""
    a = tl.program_id(0)
    wrong = tl.zeros([BLOCK], tl.int32)
    ai = _f32_value(tl.full([BLOCK], a, tl.int32))
    for b0 in range(0, 65536, BLOCK):
        b = b0 + tl.arange(0, BLOCK)
        bi = _f32_value(b)
        x, y = ai.to(tl.float32, bitcast=True), bi.to(tl.float32, bitcast=True)
        ab = tl.inline_asm_elementwise("max.f32 $0, $1, $2;", "=r,r,r", [x, y], tl.float32, True, 1)
        ba = tl.inline_asm_elementwise("max.f32 $0, $1, $2;", "=r,r,r", [y, x], tl.float32, True, 1)
        na, nb = (ai & 0x7FFFFFFF) > 0x7F800000, (bi & 0x7FFFFFFF) > 0x7F800000
        # a total order on non-NaN patterns as signed 64-bit keys: negative values reversed, -0 below +0
        ka = tl.where(ai < 0, -(ai & 0x7FFFFFFF).to(tl.int64) - 1, ai.to(tl.int64))
        kb = tl.where(bi < 0, -(bi & 0x7FFFFFFF).to(tl.int64) - 1, bi.to(tl.int64))
        ka = tl.where(na, -(1 << 40), ka)
        kb = tl.where(nb, -(1 << 40), kb)
        ref = tl.where(na & nb, 0x7FFFFFFF if not FAULT else 0x7FC00000, tl.where(ka >= kb, ai, bi))
        abi, bai = ab.to(tl.int32, bitcast=True), ba.to(tl.int32, bitcast=True)
        bad = (abi != bai) | (abi != ref)
        wrong = _tally(wrong, bad, b, sample_ptr, a)
    tl.store(bad_ptr + a, tl.sum(wrong, 0))


def _run(kernel, name: str, fault: bool, **kw) -> dict:
    """One probe over 65536 x 65536 pairs: how many differ, and up to 8 (a, b) examples."""
    bad = torch.zeros(65536, dtype=torch.int32, device="cuda")
    sample = torch.full((65536,), -1, dtype=torch.int32, device="cuda")
    k = kernel[(65536,)](bad, sample, BLOCK=1024, FAULT=fault, num_warps=4, **kw)
    torch.cuda.synchronize()
    rows = torch.nonzero(bad).flatten().tolist()
    parts = [p.strip().lstrip("{").strip() for ln in k.asm["ptx"].splitlines() for p in ln.split(";")]
    ops = sorted({p.split()[0] for p in parts if p.startswith(("max.", "cvt.f32"))})   # (inline asm's too)
    examples = [(hex(a), hex(sample[a].item())) for a in rows[:8]]
    return {"probe": name, "fault": fault, "ptx_ops": ops, "pairs": 65536 * 65536,
            "wrong_pairs": int(bad.sum().item()), "examples_a_b": examples, "holds": not rows}


def probe(fault: bool = False, only: str = "") -> list:
    """Every probe: max.f16 / max.bf16 joins, max.f32 a join on sampled patterns (NaN pairs included),
    and the widening fold cvt.f32(max16(a, b)) = max.f32(cvt a, cvt b) for f16 and bf16."""
    runs = [(_pairs, "max.f16 join", dict(BF16=False)), (_pairs, "max.bf16 join", dict(BF16=True)),
            (_pairs32, "max.f32 join (sampled patterns)", {}),
            (_fold, "cvt.f32.f16 of max.f16 = max.f32 of cvt.f32.f16", dict(BF16=False)),
            (_fold, "cvt.f32.bf16 of max.bf16 = max.f32 of cvt.f32.bf16", dict(BF16=True)),
            *[(_absfold, f"abs.{t} = and.b16 0x7FFF, {how}",
               dict(BF16=t == "bf16", CHECK=c, **_abs_asm(t == "bf16", fault if c else False)))
              for t in ("f16", "bf16") for c, how in enumerate(("bare", "widened", "under a max, widened"))]]
    return [_run(k, name, fault, **kw) for k, name, kw in runs if only in name]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--fault", action="store_true", help="also run every probe with its planted fault")
    ap.add_argument("--only", default="", help="only the probes whose name holds this text (e.g. abs)")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    out = {"device": torch.cuda.get_device_name(), "results": probe(False, a.only)}
    if a.fault:
        out["planted"] = probe(True, a.only)   # each must report wrong pairs
    json.dump(out, open(os.path.join(a.out, "max_join.json"), "w"), indent=1)
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
