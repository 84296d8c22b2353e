"""Time chosen configurations of one pinned-suite kernel, pinned and free, at the suite's timing
sizes (CUDA graphs and do_bench medians, pinned_suite.time_case), with the digests of their
outputs: for comparing layout-pass variants (switches read at import) on a few configurations
without the whole suite. GPU.

    BITORDER_PINNED_LAYOUTS=1 python benchmarks/pinned_time_configs.py gemm_colsum \\
        --configs "2,1,128;4,1,128" --out OUT.json
"""
from __future__ import annotations

import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pinned_suite as ps  # noqa: E402

from bitorder.compiler import layouts  # noqa: E402


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("name", choices=sorted(ps.CASES))
    ap.add_argument("--configs", required=True, help='"num_warps,num_stages,block;..." (pointers aligned)')
    ap.add_argument("--rep", type=float, default=50, help="ms of runs per timing")
    ap.add_argument("--out", required=True)
    args = ap.parse_args(argv)
    cfgs = [tuple(int(x) for x in c.split(",")) for c in args.configs.split(";") if c]
    ran = [(w, s, b, True, pinned) for w, s, b in cfgs for pinned in (True, False)]
    tp, tf, gp, gf, configs, digests = ps.time_case(args.name, ran, args.rep)
    rows = [{"config": c, "pinned_ms": p, "free_ms": f, "pinned_graph_ms": a, "free_graph_ms": b,
             "graph_ratio": (a / b) if a and b else None}
            for c, p, f, a, b in zip(configs[True], tp, tf, gp, gf)]
    out = {"name": args.name, "device": ps.torch.cuda.get_device_name(),
           "switches": {"layouts": layouts.enabled(),
                        "convert_rows": layouts.CONVERT_ROWS, "convert_keep_warps": layouts.CONVERT_KEEP_WARPS,
                        "convert_shuffle": layouts.CONVERT_SHUFFLE},
           "rows": rows, "digests": {"pinned": sorted(digests[True]), "free": sorted(digests[False])}}
    with open(args.out, "w") as f:
        json.dump(out, f, indent=1)
    for r in rows:
        print(r["config"], f"pinned {r['pinned_graph_ms'] * 1e3:.2f} us, free {r['free_graph_ms'] * 1e3:.2f} us, "
              f"ratio {r['graph_ratio']:.3f}")
    print("pinned digests", out["digests"]["pinned"], "free", len(out["digests"]["free"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
