#!/usr/bin/env bash
# 2026-12-03b call 5 (issue 3, ~7 min, H200): records for the batched dots no entry covers, the source of every
# non-defect fallback of seed 20261960's gate (bf16 option 10 K 82, fp16 option 93 K 3274, fp16 option 75 K 778).
# (a) Census of 1,600 designed dots over K 2-2^20 (dots-map.json): which answer each gets; (b) census of a bf16 grid
# K 35-94 x batches 2-80 (option 10 ran 2, 4, 16 or 32 lanes there in call 1: the lanes follow K and the batch);
# (c) the designed gemv probe of the grid, then of every algorithm-13 dot the map's census and call 1's sent to
# cuBLAS, K <= 8192, shortest K first (records for `bitorder probe gemv-fit` on the CPU). Tree: option 10's long
# dots verified (fp16 K 255-1024, bf16 365-1024).
set -u
O=$OUT; S=/tmp/o5; R=$S/r; mkdir -p $R
pack() { tar czf $O/call5.tgz -C $S r; }
g() { grep -v '^ ' | grep -v UserWarning | grep -v '^\[' | tail -${1:-6}; }
D=benchmarks/results/2026-12-03b-cases
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the wheel once
export PYTHONPATH=src:/tmp/site
CENSUS_ARGS="--rerun $D/dots-map.json --budget 60 --name census-map" timeout -k 5 80 scripts/gpu-run $R census | g 1
CENSUS_ARGS="--rerun $D/dots-bf16-grid.json --budget 20 --name census-grid" timeout -k 5 40 scripts/gpu-run $R census | g 1
python3 benchmarks/fallback_cases.py $R/survey-grid.json $R/census-grid.json --algo 13 --paths cublas,simt --survey
python3 benchmarks/fallback_cases.py $R/survey-all.json $R/census-map.json \
  benchmarks/results/2026-12-03b-gpu/call1/r/census-dots.json --algo 13 --survey
python3 - $R/survey-all.json $R/survey-map.json <<'PY'
import json, sys
rows = json.load(open(sys.argv[1]))["mismatches"]
def covered(c, a):   # call 1's census ran before option 10's long dots were verified
    o = (a or {}).get("custom_option")
    return o == 10 and ((c["dtype"] == "fp16" and 255 <= c["k"] <= 1024) or (c["dtype"] == "bf16" and 365 <= c["k"] <= 1024))
keep = sorted((r for r in rows if r["case"]["k"] <= 8192 and not covered(r["case"], r.get("answer"))),
              key=lambda r: r["case"]["k"])
json.dump({"mismatches": keep}, open(sys.argv[2], "w"))
print(f"[survey] {len(keep)} of {len(rows)} dots to probe (K <= 8192, not covered)")
PY
gzip -kf $R/census-map.json $R/census-grid.json; pack
timeout -k 5 60 python3 -m bitorder probe gemv --cases $R/survey-grid.json --out $R/gemv-grid --budget 50 > $R/gemv-grid.log 2>&1
tail -1 $R/gemv-grid.log; gzip -f $R/gemv-grid/probe_gemv.json; pack
timeout -k 5 220 python3 -m bitorder probe gemv --cases $R/survey-map.json --out $R/gemv-map --budget 200 > $R/gemv-map.log 2>&1
tail -2 $R/gemv-map.log; gzip -f $R/gemv-map/probe_gemv.json; pack
