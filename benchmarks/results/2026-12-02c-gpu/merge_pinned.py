"""The twelve pinned-suite kernels under rows + shuffle, from three runs, as one summary and one plot.

    python benchmarks/results/2026-12-02c-gpu/merge_pinned.py

Reads call1/pinned.json and call2/pinned.json (this session) and cross_entropy from
benchmarks/results/2026-12-02b-gpu/call4/pinned.json (same pinned code: no change under
src/bitorder/compiler, src/bitorder/language or benchmarks/pinned_suite.py between 6877477 and 383cb35);
writes suite12.json and suite12.png beside this file."""
import json
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "..", ".."))
sys.path.insert(0, os.path.join(here, "..", ".."))
import numpy as np  # noqa: E402
import pinned_suite as ps  # noqa: E402

srcs = [os.path.join(here, "call1", "pinned.json"), os.path.join(here, "call2", "pinned.json"),
        os.path.join(here, "..", "2026-12-02b-gpu", "call4", "pinned.json")]
results = []
for p in srcs:
    for r in json.load(open(p))["results"]:
        if r.get("speed_graph") and r["name"] not in {x["name"] for x in results}:
            results.append({k: v for k, v in r.items() if not k.startswith(("t_", "g_"))} | {"from": os.path.relpath(p, here)})
graph = [r["speed_graph"] for r in results]
bench = [r["speed_pinned_over_free"] for r in results]
out = {"kernels": len(results), "all_invariant": all(r["pinned_invariant"] for r in results),
       "all_equal_cpu_reference": all(r["equals_cpu_reference"] for r in results),
       "all_invariant_at_timing_sizes": all(r["timing_pinned_invariant"] for r in results),
       "median_graph_ratio": float(np.median(graph)), "max_graph_ratio": max(graph),
       "median_time_ratio": float(np.median(bench)), "max_time_ratio": max(bench),
       "over_1.10_graph": [r["name"] for r in results if r["speed_graph"] > 1.10], "results": results}
json.dump(out, open(os.path.join(here, "suite12.json"), "w"), indent=1)
ps._plot(here, results)
os.replace(os.path.join(here, "pinned.png"), os.path.join(here, "suite12.png"))
for r in results:
    print(ps._line(r))
print({k: v for k, v in out.items() if k != "results"})
