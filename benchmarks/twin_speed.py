"""How long the CPU twin takes for one GEMM (issue 7's target: 1024^3 fp16 under 60 s).

    python benchmarks/twin_speed.py [--n 1024] [--out DIR]

Times bitorder.emulate.matmul for plain wgmma k16 chains (fp16, bf16) and a split-K
descriptor on this machine's CPU; writes twin_speed.json when --out is given.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import time

from bitorder.desc import GEMMDesc
from bitorder.draws import numpy_draw
from bitorder.emulate import matmul


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=1024)
    ap.add_argument("--out")
    a = ap.parse_args()
    n, rows = a.n, []
    for dtype, desc in (("fp16", GEMMDesc("plain", "fp16", n, "wgmma", 16)),
                        ("bf16", GEMMDesc("plain", "bf16", n, "wgmma", 16)),
                        ("fp16", GEMMDesc("split_k", "fp16", n, "wgmma", 16, k_cuts=(n // 2,), partial_dtype="fp32", merge_dtype="fp32", merge_order="sequential"))):
        x, y = numpy_draw((n, n), dtype, 1, 1, "wide"), numpy_draw((n, n), dtype, 1, 2, "wide")
        t = time.perf_counter()
        matmul(x, y, desc)
        rows.append({"desc": str(desc), "m=n=k": n, "seconds": round(time.perf_counter() - t, 2)})
        print(rows[-1], flush=True)
    info = {"cpu": platform.processor() or platform.machine(), "cores": os.cpu_count(), "results": rows}
    if a.out:
        with open(os.path.join(a.out, "twin_speed.json"), "w") as f:
            json.dump(info, f, indent=1)


if __name__ == "__main__":
    main()
