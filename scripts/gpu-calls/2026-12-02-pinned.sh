#!/usr/bin/env bash
# 2026-12-02 (~2.5 min; issue 4; run as 2026-12-02 call 5, benchmarks/results/2026-12-02-gpu): gemm_colsum's pinned chain with the
# accumulator conversion's shuffle mode (BITORDER_PINNED_CONVERT_SHUFFLE=1, an experiment: before each tree
# level whose pair bit sits in a lane, a conversion swapping that lane bit with a column's register bit,
# which Triton 3.6 lowers with warp shuffles; the warps' row bits gathered once through shared memory)
# against the stock conversion, at the configurations where free and pinned were fastest (2026-12-01c) and
# where the SASS counts differ most; then the suite's invariance check of gemm_colsum (its whole space, the
# check and timing sizes, the CPU reference) under the new setting.
set -u
R=$OUT/r; mkdir -p $R
export PYTHONPATH=$PWD/src PYTHONUNBUFFERED=1 BITORDER_PINNED_LAYOUTS=1
pack() { tar czf $OUT/results.tgz -C $OUT r; }
C="2,1,128;4,1,128;2,1,64;8,1,128;1,1,32"
timeout -k 5 45 python3 benchmarks/pinned_time_configs.py gemm_colsum --configs "$C" --rep 20 --out $R/stock.json 2>&1 \
  | grep -v Warn | tail -7; pack
BITORDER_PINNED_CONVERT_SHUFFLE=1 timeout -k 5 45 python3 benchmarks/pinned_time_configs.py gemm_colsum --configs "$C" \
  --rep 20 --out $R/shuffle.json 2>&1 | grep -v Warn | tail -7; pack
BITORDER_PINNED_CONVERT_SHUFFLE=1 timeout -k 5 55 python3 benchmarks/pinned_suite.py --out $R/suite-shuffle --jobs 14 --rep 3 \
  --budget 45 --kernels gemm_colsum 2>&1 | grep -v Warn | tail -6; pack
timeout -k 5 5 python3 - $R/stock.json $R/shuffle.json <<'PY'
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:])
print("pinned digests equal:", a["digests"]["pinned"] == b["digests"]["pinned"], a["digests"]["pinned"], b["digests"]["pinned"])
for x, y in zip(a["rows"], b["rows"]):
    print(x["config"], f"free {x['free_graph_ms'] * 1e3:.2f} us, stock {x['pinned_graph_ms'] * 1e3:.2f}, "
          f"shuffle {y['pinned_graph_ms'] * 1e3:.2f} ({y['pinned_graph_ms'] / x['free_graph_ms']:.3f} of free)")
PY
