"""The twelve pinned-suite kernels on the final 2026-12-02d tree, as one summary and one plot.

    python benchmarks/results/2026-12-02d-gpu/merge_pinned.py

gemm_colsum from call6/suite/pinned.json (this session, the row permutation on by default, its whole
space); the other eleven from benchmarks/results/2026-12-02c-gpu/suite12.json (rows + shuffle in the
environment, which are today's defaults; between that tree, 383cb35, and this one the pinned code changed
only by those defaults and the row permutation, and tests/compiler/test_rowperm.py shows the permutation
leaves the other eleven kernels' TTGIR and PTX unchanged). Writes suite12.json and suite12.png here."""
import json
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", ".."))
import numpy as np  # noqa: E402
import pinned_suite as ps  # noqa: E402

old = json.load(open(os.path.join(here, "..", "2026-12-02c-gpu", "suite12.json")))["results"]
new = [r for r in json.load(open(os.path.join(here, "call6", "suite", "pinned.json")))["results"]
       if r["name"] == "gemm_colsum"]
assert len(new) == 1 and new[0].get("speed_graph")
results = [({k: v for k, v in new[0].items() if not k.startswith(("t_", "g_"))} | {"from": "call6/suite/pinned.json"})
           if r["name"] == "gemm_colsum" else r | {"from": "../2026-12-02c-gpu/" + r["from"]} for r in old]
graph = [r["speed_graph"] for r in results]
bench = [r["speed_pinned_over_free"] for r in results]
out = {"kernels": len(results), "all_invariant": all(r["pinned_invariant"] for r in results),
       "all_equal_cpu_reference": all(r["equals_cpu_reference"] for r in results),
       "all_invariant_at_timing_sizes": all(r["timing_pinned_invariant"] for r in results),
       "free_differ": all(r["free_distinct"] > 1 for r in results),
       "median_graph_ratio": float(np.median(graph)), "max_graph_ratio": max(graph),
       "median_time_ratio": float(np.median(bench)), "max_time_ratio": max(bench),
       "over_1.10_graph": [r["name"] for r in results if r["speed_graph"] > 1.10], "results": results}
json.dump(out, open(os.path.join(here, "suite12.json"), "w"), indent=1)
ps._plot(here, results)
os.replace(os.path.join(here, "pinned.png"), os.path.join(here, "suite12.png"))
for r in results:
    print(ps._line(r))
print({k: v for k, v in out.items() if k != "results"})
