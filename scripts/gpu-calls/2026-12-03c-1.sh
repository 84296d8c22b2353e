#!/usr/bin/env bash
# 2026-12-03c call 1 (issue 3, ~8 min, H200): records for the dots no entry covers. (a) Census of the 260 designed
# band dots (next-dots-band.sh's design: bf16 K 95-1,024 at batches 21-47; K 8,193-40,000); (b) a fresh 4x census of
# the default tree (seed 20262101, plans only): its non-defect fallbacks; (c) the designed gemv probe of every
# algorithm-13 answer of (a), planned or not, and of (b)'s sent to cuBLAS, shortest K first. On the CPU afterwards:
# `bitorder probe gemv-fit <probe_gemv.json.gz> --dots --check`.
set -u
O=$OUT; S=/tmp/o1; R=$S/r; mkdir -p $R
pack() { tar czf $O/call1.tgz -C $S r; }
g() { grep -v '^ ' | grep -v UserWarning | grep -v '^\[' | tail -${1:-6}; }
D=benchmarks/results/2026-12-03b-cases
export PYTHONPATH=src:/tmp/site
CENSUS_ARGS="--rerun $D/dots-band.json --budget 30 --name census-band" timeout -k 5 60 scripts/gpu-run $R census | g 1
CENSUS_ARGS="--fuzz 80000 --bias 8000 --seed 20262101 --budget 100 --name census-4x" \
  timeout -k 5 120 scripts/gpu-run $R census | g 1
python3 benchmarks/fallback_cases.py $R/left-4x.json $R/census-4x.json --skip-reason 'drops the last'
python3 benchmarks/fallback_cases.py $R/survey-b.json $R/census-band.json --algo 13 --paths cublas,simt --survey
python3 benchmarks/fallback_cases.py $R/survey-x.json $R/census-4x.json --algo 13 --survey
python3 - $R/survey-b.json $R/survey-x.json $R/survey-all.json <<'PY'
import json, sys
rows = json.load(open(sys.argv[1]))["mismatches"] + json.load(open(sys.argv[2]))["mismatches"]
rows.sort(key=lambda r: r["case"]["k"])
json.dump({"mismatches": rows}, open(sys.argv[3], "w"))
print(f"[survey] {len(rows)} dots to probe, shortest K first")
PY
gzip -kf $R/census-band.json $R/census-4x.json; rm -f $R/census-band.json $R/census-4x.json; pack
timeout -k 5 290 python3 -m bitorder probe gemv --cases $R/survey-all.json --out $R/gemv --budget 270 > $R/gemv.log 2>&1
tail -2 $R/gemv.log; gzip -f $R/gemv/probe_gemv.json; pack
