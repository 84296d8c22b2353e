"""The strided split (split_k layout "strided": K tiles dealt to the parts in turn, cuBLAS's algorithm
35) through chain_kernel + merge_kernel under Triton's CPU interpreter (TRITON_INTERPRET=1), against
the CPU twin (bitorder.emulate.matmul), byte for byte.

The interpreter's tl.dot is not the tensor cores' truncating step, so the draws make every part's
chain exact and leave the rounding to where both round to nearest in fp32: the merge of the parts
and the bias. Tile t's A entries are small integers times 2^e(t mod parts) (e spread from -22 to 2 over the
parts): a part's own tiles share one scale, so its chain is exact in any order; the parts' sums
span some 2^30, so their fp32 sum rounds, and dealing the tiles otherwise (contiguous parts, the
dealing from the last tile, a tile dropped or walked twice) changes the bytes of the fp32 output.
fp32 and fp16 outputs, with and without a bias; K not a multiple of 64 among them; parts 2-9.
Prints one line per failure, exits nonzero if any."""
import os
import sys

assert os.environ.get("TRITON_INTERPRET") == "1", "run with TRITON_INTERPRET=1"
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import interpret_shim  # noqa: E402,F401
import numpy as np  # noqa: E402
import torch  # noqa: E402

import bitorder  # noqa: E402
from bitorder.desc import GEMMDesc  # noqa: E402
from bitorder.emulate import matmul  # noqa: E402
from bitorder.gemm import launch  # noqa: E402
from mutants import fail  # noqa: E402

print(f"bitorder from {bitorder.__file__}")
TILE = 64
OUT = {"fp32": (torch.float32, np.uint32), "fp16": (torch.float16, np.uint16)}
failures = cases = differs = 0
for m, n, k, parts, layout in ((5, 7, 64 * 9 + 40, 9, "nn"), (3, 9, 64 * 5 + 1, 2, "tn"), (4, 6, 64 * 7, 3, "nt"),
                               (6, 5, 64 * 12 + 63, 5, "tt"), (2, 3, 64 * 4 + 17, 4, "nn")):
    rng = np.random.default_rng(k * 31 + parts)
    scale = np.exp2(np.round(np.linspace(-22, 2, parts)))     # fp16 subnormals to 4: exact products
    tile_scale = scale[(np.arange(k) // TILE) % parts]
    a = (rng.integers(-3, 4, (m, k)) * tile_scale[None, :]).astype(np.float16)
    b = rng.integers(-3, 4, (k, n)).astype(np.float16)
    bias = (rng.integers(-8, 9, n) * 0.125).astype(np.float16)
    desc = GEMMDesc("split_k", "fp16", k, "mma_sync", 16, k_cuts=(TILE,), k_parts=parts, partial_dtype="fp32",
                    merge_dtype="fp32", merge_order="sequential", layout="strided")
    ta = torch.from_numpy(a) if layout[0] == "n" else torch.from_numpy(np.ascontiguousarray(a.T)).t()
    tb = torch.from_numpy(b) if layout[1] == "n" else torch.from_numpy(np.ascontiguousarray(b.T)).t()
    for out in OUT:
        for with_bias in (False, True):
            d = desc.replace(epilogue=("bias_acc", "round")) if with_bias else desc
            want = matmul(a, b, d, bias=bias.astype(np.float64) if with_bias else None, out_dtype=out)
            got = launch.run(ta, tb, d, torch.from_numpy(bias) if with_bias else None, out_dtype=OUT[out][0]).numpy()
            cases += 1
            if out == "fp32":     # the draw must tell the dealing from contiguous parts (else it checks nothing)
                other = matmul(a, b, d.replace(layout=None), bias=bias.astype(np.float64) if with_bias else None,
                               out_dtype=out)
                differs += not np.array_equal(other.view(np.uint32), want.view(np.uint32))
            if not np.array_equal(got.view(OUT[out][1]), want.view(OUT[out][1])):
                failures += 1
                fail(f"FAIL {m}x{n}x{k} {layout} parts={parts} {out} bias={with_bias}: "
                     f"{int((got.view(OUT[out][1]) != want.view(OUT[out][1])).sum())} of {want.size} outputs differ")
# descriptors the kernels cannot run must raise, never compute something else
a16, b16 = torch.ones(2, 300, dtype=torch.float16), torch.ones(300, 3, dtype=torch.float16)
base = GEMMDesc("split_k", "fp16", 300, "mma_sync", 16, k_cuts=(64,), k_parts=3, partial_dtype="fp32",
                merge_dtype="fp32", merge_order="tree", layout="strided")
for bad in (base, base.replace(merge_dtype="fp16", merge_order="sequential")):
    cases += 1
    try:
        launch.run(a16, b16, bad)
        failures += 1
        fail(f"FAIL launch.run ran {bad}")
    except NotImplementedError:
        pass
if differs < 8:
    failures += 1
    fail(f"FAIL the draws tell the dealing from contiguous parts in only {differs} of 10 fp32 cases")
print(f"{cases} cases, {differs} of 10 fp32 draws where contiguous parts differ, {failures} failures")
sys.exit(1 if failures else 0)
