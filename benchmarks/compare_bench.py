"""Compare two bench_gemm.py (or two bench_fp8.py) runs on the shapes both timed (CUDA-graph speeds x cuBLAS).

    python benchmarks/compare_bench.py BASE.json NEW.json [--json OUT.json]

Prints, over the shapes both runs timed on the Triton path, the geometric mean of NEW's speed
over BASE's (all shapes and above 5 GFLOP), per group above 5 GFLOP for both, and whether
NEW returned torch's bytes on every shape. Exit status 0 when NEW is faster above 5 GFLOP,
its slowest group (above 5 GFLOP) is faster than BASE's slowest (issue 3's floor is per group)
and every NEW output was identical; 1 otherwise (a script can pick tiles by it).
"""
from __future__ import annotations

import argparse
import json
import math
import sys
from collections import defaultdict


def _mode(r):
    """bench_gemm rows' dtype; bench_fp8 rows' accumulation mode (fast / slow), its groups' first part."""
    return r["dtype"] if "dtype" in r else ("fast" if r["fast_accum"] else "slow")


def _key(r):
    return _mode(r), r["group"], r["m"], r["n"], r["k"]


def _gmean(v):
    return math.exp(sum(map(math.log, v)) / len(v)) if v else float("nan")


def compare(base: dict, new: dict) -> dict:
    """{"shapes", "ratio_all", "ratio_above", "groups": {group: (base, new)}, "new_identical"}."""
    b = {_key(r): r for r in base["rows"] if r.get("speed_graph") and r.get("path") == "triton"}
    rows = [(b[_key(r)], r) for r in new["rows"] if _key(r) in b and r.get("speed_graph") and r.get("path") == "triton"]
    groups = defaultdict(lambda: ([], []))
    for x, y in rows:
        if x["gflop"] > 5:
            g = groups[f"{_mode(x)}:{x['group'].split(':')[-1]}"]
            g[0].append(x["speed_graph"])
            g[1].append(y["speed_graph"])
    return {"shapes": len(rows),
            "ratio_all": _gmean([y["speed_graph"] / x["speed_graph"] for x, y in rows]),
            "ratio_above": _gmean([y["speed_graph"] / x["speed_graph"] for x, y in rows if x["gflop"] > 5]),
            "groups": {k: (_gmean(v[0]), _gmean(v[1])) for k, v in sorted(groups.items())},
            "new_identical": all(r.get("identical") for r in new["rows"])}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("base")
    ap.add_argument("new")
    ap.add_argument("--json")
    a = ap.parse_args()
    with open(a.base) as f, open(a.new) as g:
        c = compare(json.load(f), json.load(g))
    print(f"{c['shapes']} shapes: new/base {c['ratio_all']:.3f} (above 5 GFLOP {c['ratio_above']:.3f}); "
          f"new identical on every shape: {c['new_identical']}")
    for k, (x, y) in c["groups"].items():
        print(f"  {k:16s} above 5 GFLOP: base {x:.3f}  new {y:.3f}")
    if a.json:
        with open(a.json, "w") as f:
            json.dump(c, f, indent=1)
    worst = [min(v[i] for v in c["groups"].values()) for i in (0, 1)] if c["groups"] else [0, 0]
    print(f"slowest group above 5 GFLOP: base {worst[0]:.3f}, new {worst[1]:.3f}")
    return 0 if c["ratio_above"] > 1.0 and worst[1] > worst[0] and c["new_identical"] else 1


if __name__ == "__main__":
    sys.exit(main())
