"""The segment-K path (bitorder.gemm.segment_k: the chain kernel per segment, torch's fp32 adds in the
merge tree) under Triton's CPU interpreter (TRITON_INTERPRET=1), against the CPU twin of the reading
(bitorder.cublas.segment_k), byte for byte.

The interpreter's tl.dot is not the tensor cores' truncating step, so the draws make every segment's
chain exact: segment j's A entries are small integers times 2^e(j) (e spread from -22 to 2, shuffled), so a
segment's sum is exact in any order while the merge of the segments rounds in fp32, and merging them
in another order (pairs from segment 0, longer segments first, a segment dropped) changes the fp32
sums. The plain chain over all of K mixes the scales and is not exact in the interpreter: outputs
outside the left-over tiles are compared with the same kernel's plain chain, those inside with the
twin, and in every tile of every plan the draw must tell the merged segments from the plain chain on
some output (else moving the tiles' boundary would pass). Plans are built small (tiles of 16, a few tiles, the first split after a few) in both
orders, serpentine and row-major, fp16 and bf16 (Triton 3.6's interpreter multiplies bf16's raw 16-bit
integers in tl.dot and truncates fp32 -> bf16: interpret_shim's bf16_dot and bf16_round_to_nearest read
and round them as the GPU does). Prints one line per failure, exits nonzero if any."""
import dataclasses
import os
import sys

assert os.environ.get("TRITON_INTERPRET") == "1", "run with TRITON_INTERPRET=1"
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import interpret_shim  # noqa: E402,F401
import numpy as np  # noqa: E402
import torch  # noqa: E402

import bitorder  # noqa: E402
from bitorder.cublas import segment_k as twin  # noqa: E402
from bitorder.gemm import launch  # noqa: E402
from bitorder.gemm import segment_k  # noqa: E402
from mutants import fail  # noqa: E402

print(f"bitorder from {bitorder.__file__}")
TORCH = {"fp16": torch.float16, "bf16": torch.bfloat16}
interpret_shim.bf16_dot()
interpret_shim.bf16_round_to_nearest()
failures = cases = 0
told = total = 0
#         m,  n,   k,         s, tile, first_split, order,        dtype
PLANS = ((45, 40, 64 * 7 + 23, 3, 16, 6, "serpentine", "fp16"),
         (70, 16, 64 * 9, 5, 16, 3, "serpentine", "bf16"),
         (38, 50, 64 * 6 + 1, 4, 16, 7, "rowmajor", "fp16"),
         (40, 35, 64 * 11 + 40, 7, 16, 4, "serpentine", "bf16"))
for m, n, k, s, tile, first, order, dtype in PLANS:
    p = twin.SegmentKPlan(k, dtype, twin.segment_bounds(k, s), "pairwise", tile, -(-n // tile), -(-m // tile),
                          first, order)
    rng = np.random.default_rng(k * 7 + s)
    seg = np.searchsorted(np.array(p.bounds[1:]), np.arange(k), side="right")      # each k's segment
    scale = rng.permutation(np.exp2(np.round(np.linspace(-22, 2, s))))[seg]   # big and small segments interleaved
    a = (rng.integers(-3, 4, (m, k)) * scale[None, :]).astype(np.float32)
    b = rng.integers(-3, 4, (k, n)).astype(np.float32)
    ta = torch.from_numpy(a).to(TORCH[dtype])
    tb = torch.from_numpy(np.ascontiguousarray(b.T)).to(TORCH[dtype]).t()            # torch layout nt
    a64, b64 = ta.float().double().numpy(), tb.float().double().numpy()
    got = segment_k.accumulate(ta, tb, p).numpy().view(np.uint32)
    want = twin.accumulate(a64, b64, p, list(range(m)), list(range(n))).view(np.uint32)
    plain = launch.run(ta, tb, p.plain, out_dtype=torch.float32).numpy().view(np.uint32)
    inside = segment_k.split_mask(p, m, n).numpy()
    inside_twin = np.array([[p.is_split(r, c) for c in range(n)] for r in range(m)])
    cases += 1
    if not np.array_equal(inside, inside_twin):
        failures += 1
        fail(f"FAIL {m}x{n}x{k} {order}: the left-over tiles differ from the twin's ({int((inside != inside_twin).sum())})")
    bad = int((got != np.where(inside_twin, want, plain)).sum())
    merged_all = twin.accumulate(a64, b64, dataclasses.replace(p, first_split=0), list(range(m)), list(range(n)))
    differ = merged_all.view(np.uint32) != plain
    for i in range(p.nt):
        for j in range(p.mt):
            total += 1
            told += bool(differ[i * tile:(i + 1) * tile, j * tile:(j + 1) * tile].any())
    if bad:
        failures += 1
        fail(f"FAIL {m}x{n}x{k} s={s} {order} {dtype}: {bad} of {m * n} fp32 sums differ "
             f"({int((got != want)[inside_twin].sum())} of {int(inside_twin.sum())} left-over outputs)")
    out = segment_k.run(ta, tb, p)
    rounded = torch.from_numpy(got.view(np.float32)).to(TORCH[dtype])
    cases += 1
    if out.dtype != TORCH[dtype] or not torch.equal(out.view(torch.int16), rounded.view(torch.int16)):
        failures += 1
        fail(f"FAIL {m}x{n}x{k} {dtype}: run is not accumulate rounded once")
# the records' geometry with a short K: algorithm 42 (64-row tiles, one tile column, 132 plain + 9 left over)
# and 41 (128x128 tiles, serpentine, two waves + 2 left over in an odd tile row): the band and the mask at
# full size, the left-over outputs of the band's first and last rows against the twin
for m, n, k, s, tile, dtype in ((64 * 141 - 5, 16, 64 * 4 + 7, 4, 64, "bf16"), (1790, 2410, 64 * 3 + 2, 3, 128, "fp16")):
    mt, nt = -(-n // tile), -(-m // tile)
    p = twin.SegmentKPlan(k, dtype, twin.segment_bounds(k, s), "pairwise", tile, mt, nt, mt * nt - mt * nt % 132)
    rng = np.random.default_rng(k)
    seg = np.searchsorted(np.array(p.bounds[1:]), np.arange(k), side="right")
    scale = rng.permutation(np.exp2(np.round(np.linspace(-22, 2, s))))[seg]
    ta = torch.from_numpy((rng.integers(-3, 4, (m, k)) * scale[None, :]).astype(np.float32)).to(TORCH[dtype])
    tb = torch.from_numpy(rng.integers(-3, 4, (n, k)).astype(np.float32)).to(TORCH[dtype]).t()
    got = segment_k.accumulate(ta, tb, p).numpy().view(np.uint32)
    inside = segment_k.split_mask(p, m, n).numpy()
    band = np.flatnonzero(inside.any(axis=1))
    rows = [int(band[0]), int(band[-1])]
    want = twin.accumulate(ta.double().numpy()[rows], tb.double().numpy(), p, rows, list(range(n))).view(np.uint32)
    inside_twin = np.array([[p.is_split(r, c) for c in range(n)] for r in rows])
    bad = int(((got[rows] != want) & inside_twin).sum()) + int((inside[rows] != inside_twin).sum())
    cases += 1
    if bad or not inside_twin.any():
        failures += 1
        fail(f"FAIL {m}x{n}x{k} tiles of {tile}: {bad} left-over outputs of rows {rows} differ from the twin")
# bitorder.matmul's route: a "segk" plan runs segment_k.run on torch's operands (the planner's answer and the
# CUDA check stood in for: the interpreter runs CPU tensors)
from bitorder.gemm import api  # noqa: E402
m, n, k = 45, 40, 64 * 7 + 23
p = twin.SegmentKPlan(k, "fp16", twin.segment_bounds(k, 3), "pairwise", 16, 3, 3, 6)
ta = torch.randn(m, k).to(torch.float16)
tb = torch.randn(n, k).to(torch.float16).t()
api._check = lambda *tensors: "fp16"
api._route_cached = lambda a, b, bias: (api.Plan("segk", None, {"algo_id": 42}, "gemm", "", order=p), "2d")
got = bitorder.matmul(ta, tb)
cases += 1
if not torch.equal(got.view(torch.int16), segment_k.run(ta, tb, p).view(torch.int16)) or api.stats().get("segk") != 1:
    failures += 1
    fail(f"FAIL bitorder.matmul on a segk plan is not segment_k.run's bytes (stats {api.stats()})")
# bad operands raise
p = twin.SegmentKPlan(128, "fp16", (0, 64, 128), "pairwise", 16, 1, 1, 0)
for shape_a, shape_b in (((16, 127), (127, 16)), ((40, 128), (128, 16))):
    cases += 1
    try:
        segment_k.accumulate(torch.ones(shape_a, dtype=torch.float16), torch.ones(shape_b, dtype=torch.float16), p)
        failures += 1
        fail(f"FAIL accumulate ran {shape_a} @ {shape_b} under a plan for another shape")
    except ValueError:
        pass
if told < total:
    failures += 1
    fail(f"FAIL the draws tell the merged segments from the plain chain in only {told} of {total} tiles")
print(f"{cases} cases, {told} of {total} tiles where the merge differs from the plain chain, {failures} failures")
sys.exit(1 if failures else 0)
