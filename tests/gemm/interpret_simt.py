"""Run the SIMT gemv kernel under Triton's CPU interpreter (TRITON_INTERPRET=1) against the CPU
twin (bitorder.emulate.simt.matmul), byte for byte, on wide-range fp16 draws: every GemvOrder the
kernel takes (lanes, chunk, fold, span, bias placement), both operand sides (M == 1 and N == 1)
both layouts of the matrix, fp16 and fp32 outputs (fp32 shows the order: a rounding to fp16 hides
most of it). fp16 products are exact in fp32, so the interpreter's fma (a
product, then an add) rounds as the GPU's fma.rn.f32 does. Prints one line per failure and
exits nonzero if any. SIMT_SAMPLE=1 (CI's run) keeps every 16th plain order, every fourth capped or
banked one, the fp32 outputs and one matrix layout per order and shape, alternating (SIMT_FAULT=1:
six count-down orders, a planted-fault run's share); without it every order runs (about 5 minutes)."""
import itertools
import os
import sys

assert os.environ.get("TRITON_INTERPRET") == "1", "run with TRITON_INTERPRET=1"
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import interpret_shim  # noqa: E402,F401
import numpy as np  # noqa: E402
import torch  # noqa: E402

import bitorder  # noqa: E402
from bitorder.emulate import simt  # noqa: E402
from bitorder.gemm.simt import gemv, gemv_rows, gemv_rows_batched  # noqa: E402
from mutants import fail  # noqa: E402  (stops at the first FAIL in planted-fault runs)

print(f"bitorder from {bitorder.__file__}")
rng = np.random.default_rng(20261130)


def draw(shape):
    """fp16 values over many binades, signs mixed: sums that depend on their order."""
    x = rng.standard_normal(shape) * 2.0 ** rng.integers(-10, 4, shape)
    return x.astype(np.float16)


QUICK = os.environ.get("SIMT_QUICK") == "1"     # (the planted-fault run: fewer orders, same checks)
ORDERS = [simt.GemvOrder(lanes=l, chunk=c, fold=f, span=s, bias=bb)
          for l, c, f, s, bb in itertools.product((1, 4, 32), (None, 1, 8), ("down", "up", "seq"), (None, 37),
                                                 ("acc", "out"))
          if not (l == 1 and (c is not None or f != "down")) and not (QUICK and (c == 8 or bb == "out"))]
ORDERS += [simt.GemvOrder(lanes=l, fold="down", span=s, cap=8) for l, s in ((4, None), (4, 37), (32, None))]   # capped
ORDERS += [simt.GemvOrder(lanes=l, chunk=c, fold=f, span=s, block=bk)            # chains restarted every block
           for l, c, f, s, bk in ((16, 1, "seq", None, 64), (4, 1, "seq", None, 16), (4, 8, "down", 37, 20),
                                  (4, None, "up", None, 24), (1, None, "down", None, 7))]
ORDERS += [simt.GemvOrder(lanes=l, chunk=c, fold="seq", span=s, block=bk, block_in_chunk=True)  # gemmSN NN's banking
           for l, c, s, bk in ((4, None, None, 16), (2, None, None, 8), (4, 8, 37, 3))]
if os.environ.get("SIMT_SAMPLE") == "1":   # CI's share: every 16th plain order, every fourth banked one, fp32 out
    ORDERS = [o for i, o in enumerate(ORDERS) if i % 16 == 0 or ((o.block or o.cap) and i % 4 == 0)]
# gemvNSP's lane counts that are not powers of two (2026-12-01e fit: 20, 24, 26 or 12 lanes, chunk 4, the
# count-down butterfly over them padded to the next power of two): two in every run, two more in full ones
ORDERS += [simt.GemvOrder(lanes=l, chunk=c, fold="down", span=s) for l, c, s in
           ((20, 4, None),) + (() if os.environ.get("SIMT_SAMPLE") == "1" else ((12, 1, 37), (26, 4, None), (24, 4, 37)))]
if os.environ.get("SIMT_FAULT") == "1":    # a planted-fault run: the count-down folds only
    ORDERS = [o for o in ORDERS if o.fold == "down" and o.lanes > 1][:6]
failures = cases = 0
seen = {}      # (case, draw) -> the twin's byte patterns over the orders: the draws must tell orders apart
OUT = {"fp16": (torch.float16, np.uint16), "fp32": (torch.float32, np.uint32)}
OUTS = ("fp32",) if os.environ.get("SIMT_SAMPLE") == "1" else tuple(OUT)
# the kernel's loop takes UNROLL chain steps a trip (the GPU's 8 for every third order, 2 for the rest:
# the interpreter pays for masked steps; 2 still ends trips past the last step); the bits never move
UNROLL = {id(o): 8 if i % 3 == 0 else 2 for i, o in enumerate(ORDERS)}
# a split order's parts apart (the default since 2026-12-01f) for every other order, in one program
# (BITORDER_GEMV_PARTS=0) for the rest: both launches stay checked
APART_OF = {id(o): i % 2 == 1 for i, o in enumerate(ORDERS)}
ORDER_IX = {id(o): i for i, o in enumerate(ORDERS)}
SHAPES = ((1, 150, 9), (7, 150, 1), (1, 64, 3), (5, 33, 1))
for (m, k, n), trans, out, order in itertools.product(SHAPES, (False, True), OUTS, ORDERS):
    if os.environ.get("SIMT_SAMPLE") == "1" and trans != (SHAPES.index((m, k, n)) + ORDER_IX[id(order)]) % 2:
        continue   # CI's share: one layout per order and shape, alternating (every order sees both)
    rng = np.random.default_rng(k * 1000 + m * 10 + n)       # one draw per shape: orders compared on it
    a, b = draw((m, k)), draw((k, n))
    for with_bias in (False, True):
        bias = draw((n,)) if with_bias else None
        want = simt.matmul(a, b, order, bias=bias, out_dtype=out)
        if out == "fp32":
            seen.setdefault(((m, k, n), with_bias), set()).add(want.tobytes())   # (the twin reads no layout)
        ta = torch.from_numpy(a.T.copy()).t() if trans and m > 1 else torch.from_numpy(a)
        tb = torch.from_numpy(b.T.copy()).t() if trans and n > 1 else torch.from_numpy(b)
        got = gemv(ta, tb, order, bias=None if bias is None else torch.from_numpy(bias), out_dtype=OUT[out][0],
                   unroll=UNROLL[id(order)], parts_apart=APART_OF[id(order)]).numpy()
        cases += 1
        g, w = got.view(OUT[out][1]), want.view(OUT[out][1])
        if not np.array_equal(g, w):
            failures += 1
            fail(f"FAIL {(m, k, n)} trans={trans} {out} bias={with_bias} {order}: {int((g != w).sum())} of {g.size} differ")
# a split order's parts in programs of their own, then added in K order by a second launch
# (gemv(parts_apart=True)): the same bytes as the twin's, batched too
APART = [simt.GemvOrder(lanes=32, chunk=1, span=37, bias="out"), simt.GemvOrder(lanes=26, chunk=4, span=37),
         simt.GemvOrder(lanes=4, fold="seq", span=37, block=16), simt.GemvOrder(lanes=4, span=37, cap=8)]
if os.environ.get("SIMT_SAMPLE") == "1":   # CI's share: two of them (all four by hand)
    APART = APART[:2]
for (m, k, n), order in itertools.product(((1, 150, 9), (7, 150, 1)), APART):
    a, b, bias = draw((2, m, k)), draw((2, k, n)), draw((n,))
    got = gemv(torch.from_numpy(a), torch.from_numpy(b), order, bias=torch.from_numpy(bias), out_dtype=torch.float32,
               parts_apart=True).numpy().view(np.uint32)
    want = np.stack([simt.matmul(a[i], b[i], order, bias=bias, out_dtype="fp32") for i in range(2)]).view(np.uint32)
    cases += 1
    if not np.array_equal(got, want):
        failures += 1
        fail(f"FAIL parts apart {(2, m, k, n)} {order}: {int((got != want).sum())} of {got.size} differ")
# batches (bmm's gemv): each entry the twin's bytes for its own operands, the vector side's batch
# stride 0 too (torch's 3-D @ 2-D expands the 2-D operand)
for (m, k, n), order in itertools.product(((1, 150, 9), (7, 150, 1)), ORDERS[:12:3]):
    a, b = draw((3, m, k)), draw((3, k, n))
    for shared in (False, True):
        if os.environ.get("SIMT_SAMPLE") == "1" and shared != ((m == 1) + ORDER_IX[id(order)] // 3) % 2:
            continue   # CI's share: one of the two per order and side, alternating (both by hand)
        tb = torch.from_numpy(b[:1]).expand(3, k, n) if shared else torch.from_numpy(b)
        got = gemv(torch.from_numpy(a), tb, order, out_dtype=torch.float32).numpy().view(np.uint32)
        want = np.stack([simt.matmul(a[i], b[0 if shared else i], order, out_dtype="fp32") for i in range(3)]).view(np.uint32)
        cases += 1
        if not np.array_equal(got, want):
            failures += 1
            fail(f"FAIL batch {(3, m, k, n)} shared={shared} {order}: {int((got != want).sum())} of {got.size} differ")
# magma's order (bitorder.gemm.simt.seq): one chain per output over any M x N, every layout, bias or not
from bitorder.gemm.simt import seq  # noqa: E402
for (m, k, n), (ta_, tb_), out, with_bias in itertools.product(((5, 13, 70), (40, 38, 3), (1, 7, 1)),
                                                             ((False, False), (True, False), (True, True), (False, True)),
                                                             OUTS, (False, True)):
    a, b = draw((m, k)), draw((k, n))
    bias = draw((n,)) if with_bias else None
    want = simt.matmul(a, b, simt.GemvOrder(lanes=1, fold="seq"), bias=bias, out_dtype=out)
    xa = torch.from_numpy(a.T.copy()).t() if ta_ else torch.from_numpy(a)
    xb = torch.from_numpy(b.T.copy()).t() if tb_ else torch.from_numpy(b)
    got = seq(xa, xb, bias=None if bias is None else torch.from_numpy(bias), out_dtype=OUT[out][0]).numpy()
    cases += 1
    g, w = got.view(OUT[out][1]), want.view(OUT[out][1])
    if not np.array_equal(g, w):
        failures += 1
        fail(f"FAIL seq {(m, k, n)} trans={(ta_, tb_)} {out} bias={with_bias}: {int((g != w).sum())} of {g.size} differ")
for shared in (False, True):       # a batch (bmm), the 2-D operand expanded (batch stride 0) too
    a, b = draw((3, 6, 11)), draw((3, 11, 20))
    tb = torch.from_numpy(b[:1]).expand(3, 11, 20) if shared else torch.from_numpy(b)
    got = seq(torch.from_numpy(a), tb, out_dtype=torch.float32).numpy().view(np.uint32)
    want = np.stack([simt.matmul(a[i], b[0 if shared else i], simt.GemvOrder(lanes=1, fold="seq"), out_dtype="fp32")
                     for i in range(3)]).view(np.uint32)
    cases += 1
    if not np.array_equal(got, want):
        failures += 1
        fail(f"FAIL seq batch shared={shared}: {int((got != want).sum())} of {got.size} differ")
# gemmSN's rows in one launch (gemv_rows): every row of a against b's columns, each as gemv(a[i:i + 1], b)
for order, (tb_, with_bias) in itertools.product(
        (simt.GemvOrder(lanes=4, chunk=1, fold="seq", block=4), simt.GemvOrder(lanes=4, fold="seq", block=4,
                                                                           block_in_chunk=True),
         simt.GemvOrder(lanes=2, fold="seq", block=8, block_in_chunk=True)), ((False, False), (True, True))):
    if os.environ.get("SIMT_FAULT") == "1":
        break
    a, b, bias = draw((3, 40)), draw((40, 7)), draw((7,))
    xb = torch.from_numpy(b.T.copy()).t() if tb_ else torch.from_numpy(b)
    tbias = torch.from_numpy(bias) if with_bias else None
    got = gemv_rows(torch.from_numpy(a), xb, order, bias=tbias, out_dtype=torch.float32).numpy().view(np.uint32)
    want = np.concatenate([simt.matmul(a[i:i + 1], b, order, bias=bias if with_bias else None, out_dtype="fp32")
                           for i in range(3)]).view(np.uint32)
    cases += 1
    if not np.array_equal(got, want):
        failures += 1
        fail(f"FAIL gemv_rows {order} b transposed={tb_} bias={with_bias}: {int((got != want).sum())} of {got.size} differ")
# batched gemmSN (gemv_rows_batched, by_row): launches by row when M < B, by entry otherwise; each
# entry's rows the twin's bytes for its own operands
for (B, M), order in itertools.product(((3, 2), (2, 3)), (simt.GemvOrder(lanes=4, chunk=1, fold="seq", block=4),)):
    if os.environ.get("SIMT_FAULT") == "1":
        break
    a, b, bias = draw((B, M, 40)), draw((B, 40, 7)), draw((7,))
    got = gemv_rows_batched(torch.from_numpy(a), torch.from_numpy(b), order, bias=torch.from_numpy(bias),
                            out_dtype=torch.float32, by_row=True).numpy().view(np.uint32)
    want = np.stack([simt.matmul(a[z], b[z], order, bias=bias, out_dtype="fp32") for z in range(B)]).view(np.uint32)
    cases += 1
    if not np.array_equal(got, want):
        failures += 1
        fail(f"FAIL gemv_rows_batched {(B, M)} {order}: {int((got != want).sum())} of {got.size} differ")
distinct = min(len(v) for v in seen.values())
print(f"{cases} cases, {failures} failures; the twin's orders gave at least {distinct} byte patterns per draw")
if distinct < 4:
    fail("FAIL the draws do not tell the orders apart")
    failures += 1
sys.exit(1 if failures else 0)
