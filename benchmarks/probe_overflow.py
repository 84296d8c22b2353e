"""What one tensor-core step does with products past fp32's range (GPU probe, issue 7).

bf16 products reach 2^254; the twin (bitorder.emulate.tensorcore) sums them exactly and
gives inf only when the rounded result reaches 2^128. The 2026-11-30 twin gate's planted-fault
run showed bf16 special-value draws (a row of 3e38) differing on a whole output row with the
bf16 model untouched: the hardware does something else with such products. Each row of A
here is one scenario against B's column 0 (2^100 in every lane), K = 32 (two steps of 16); B's
other columns are wide random values against rows of 3e38, as the twin gate's special draw.
The chain kernel runs with an fp32 output (the raw accumulator) and a bf16 one.
Writes probe_overflow.json: per scenario the products, the GPU's bits (Triton and cuBLAS) and
the twin's, so that the rule can be fitted on the CPU.

    python benchmarks/probe_overflow.py --out DIR
"""
from __future__ import annotations

import argparse
import json
import os

import numpy as np
from ml_dtypes import bfloat16

from bitorder import emulate
from bitorder.desc import GEMMDesc

K, N, ROWS = 32, 16, 64
P = 2.0 ** 100   # B's column 0: a product is a * 2^100
# name: {lane: a value} (lanes 0-15 are the first step, 16-31 the second)
SCENARIOS = {
    "2^200 - 2^200 (exact 0)": {0: 2.0 ** 100, 1: -2.0 ** 100},
    "-2^200 + 2^200": {0: -2.0 ** 100, 1: 2.0 ** 100},
    "2^130 alone": {0: 2.0 ** 30},
    "2^130 - 2^129": {0: 2.0 ** 30, 1: -2.0 ** 29},
    "2^130 - (2^130 - 2^124) = 2^124": {0: 2.0 ** 30, 1: -(2.0 ** 30 - 2.0 ** 24)},
    "2^127": {0: 2.0 ** 27},
    "1.5*2^127 + 0.5*2^127 = 2^128": {0: 1.5 * 2.0 ** 27, 1: 0.5 * 2.0 ** 27},
    "1.5*2^127 + 0.25*2^127": {0: 1.5 * 2.0 ** 27, 1: 0.25 * 2.0 ** 27},
    "2^128 + 2^128": {0: 2.0 ** 28, 1: 2.0 ** 28},
    "2^126 x 4 = 2^128": {0: 2.0 ** 26, 1: 2.0 ** 26, 2: 2.0 ** 26, 3: 2.0 ** 26},
    "2^200 + 2^100": {0: 2.0 ** 100, 1: 1.0},
    "2^200 - 2^200 + 2^120": {0: 2.0 ** 100, 1: -2.0 ** 100, 2: 2.0 ** 20},
    "2^160 - 2^160 + 2^100": {0: 2.0 ** 60, 1: -2.0 ** 60, 2: 1.0},
    "2^129 - 2^129 + 2^100": {0: 2.0 ** 29, 1: -2.0 ** 29, 2: 1.0},
    "step 1: 2^127, step 2: 2^127": {0: 2.0 ** 27, 16: 2.0 ** 27},
    "step 1: 2^127, step 2: -2^127": {0: 2.0 ** 27, 16: -2.0 ** 27},
    "step 1: 2^130, step 2: -2^130": {0: 2.0 ** 30, 16: -2.0 ** 30},
    "step 1: 2^130 - 2^130, step 2: 2^127": {0: 2.0 ** 30, 1: -2.0 ** 30, 16: 2.0 ** 27},
    "step 1: 2^100, step 2: 2^200 - 2^200": {0: 1.0, 16: 2.0 ** 100, 17: -2.0 ** 100},
}
BIG_ROWS = range(len(SCENARIOS), len(SCENARIOS) + 8)   # rows of 3e38 against random columns


def operands(seed: int = 0):
    """(a, b) as bf16 numpy arrays: the scenarios' rows, then rows of 3e38 (the gate's special)."""
    a = np.zeros((ROWS, K), np.float64)
    for r, lanes in enumerate(SCENARIOS.values()):
        for k, v in lanes.items():
            a[r, k] = v
    rng = np.random.default_rng(seed)
    for r in BIG_ROWS:
        a[r, :] = 3e38
    b = rng.standard_normal((K, N)) * np.exp2(rng.integers(-20, 20, (K, N)))
    b[:, 0] = P
    return a.astype(bfloat16), b.astype(bfloat16)


def twin(a, b, out: str = "fp32") -> np.ndarray:
    """The twin's a @ b for two wgmma k16 steps: the fp32 accumulator, or rounded to `out`."""
    return emulate.matmul(a, b, GEMMDesc("plain", "bf16", K, "wgmma", 16), None, out)


def report(a, b, gpu: np.ndarray) -> dict:
    """Per scenario (column 0) and per big row (every column): the twin's fp32 accumulator bits and
    the GPU's (gpu: uint32 view of the chain kernel's fp32 output)."""
    want = twin(a, b).view(np.uint32)
    hexes = lambda x: [hex(int(v)) for v in np.ravel(x)]  # noqa: E731
    rows = [{"scenario": name, "twin": hex(int(want[r, 0])), "gpu": hex(int(gpu[r, 0]))}
            for r, name in enumerate(SCENARIOS)]
    big = [{"row": r, "twin": hexes(want[r]), "gpu": hexes(gpu[r])} for r in BIG_ROWS]
    return {"scenarios": rows, "big_rows": big, "elements_differing_from_twin": int((want != gpu).sum()),
            "b_bits": hexes(b.view(np.uint16)), "note": "column 0 of B is 2^100; a row of 3e38 is 0x7f62 in bf16"}


def main():
    import torch

    from bitorder.gemm import launch
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    a, b = operands()
    ta = torch.from_numpy(a.view(np.uint16).astype(np.int16)).view(torch.bfloat16).cuda()
    tb = torch.from_numpy(b.view(np.uint16).astype(np.int16)).view(torch.bfloat16).cuda()
    desc = GEMMDesc("plain", "bf16", K, "wgmma", 16)
    acc = launch.run(ta, tb, desc, out_dtype=torch.float32)   # the raw accumulator
    res = report(a, b, acc.cpu().view(torch.int32).numpy().view(np.uint32))
    out = launch.run(ta, tb, desc).cpu().view(torch.int16).numpy().view(np.uint16)   # bf16, as the twin gate compares
    res["bf16_output_rows_differing"] = [int(r) for r in np.flatnonzero((out != twin(a, b, "bf16").view(np.uint16)).any(1))]
    with open(os.path.join(args.out, "probe_overflow.json"), "w") as f:
        json.dump(res, f, indent=1)
    print(json.dumps(res["elements_differing_from_twin"]))
    for s in res["scenarios"]:
        print(f"{s['scenario']:40s} " + "  ".join(f"{k}={v}" for k, v in s.items() if k != "scenario"))


if __name__ == "__main__":
    main()
