#!/usr/bin/env bash
# Prepared 2026-12-03c for a next session (issue 3 hardening, ~5 min, H200): do the verified dot entries that bound
# no batch hold at every batch? 2026-12-03c found four that did not (option 10 bf16 from K 95: 32 lanes at batches
# 24-41, where grounds at other batches had verified 16). Census of 264 designed dots, 12 in each of the 22 such
# entries, batches uniform over 2-80 (benchmarks/results/2026-12-03c-cases/dots-unbounded.json, design_regions.py
# --per 12 --unbounded --seed 20262150), then the designed gemv probe of every algorithm-13 answer among them,
# planned or not, shortest K first. On the CPU afterwards:
#   bitorder probe gemv-fit <probe_gemv.json.gz> --dots --check
# A DISAGREES is wrong bits: bound that entry's batches at once (as ab0202f did), then ground the other side.
#   STAGE=/tmp/oN OUT=$OUT/batches bash scripts/gpu-calls/next-dots-batches.sh
set -u
R=${STAGE:-$OUT}/r; mkdir -p $R $OUT
pack() { tar czf $OUT/results.tgz -C ${STAGE:-$OUT} r; }
g() { grep -v '^ ' | grep -v UserWarning | grep -v '^\[' | tail -${1:-6}; }
export PYTHONPATH=src:/tmp/site
CENSUS_ARGS="--rerun benchmarks/results/2026-12-03c-cases/dots-unbounded.json --budget 30 --name census-unbounded" \
  timeout -k 5 60 scripts/gpu-run $R census | g 1
python3 benchmarks/fallback_cases.py $R/survey-all.json $R/census-unbounded.json --algo 13 --paths cublas,simt --survey
python3 - $R/survey-all.json $R/survey-sorted.json <<'PY'
import json, sys
rows = sorted(json.load(open(sys.argv[1]))["mismatches"], key=lambda r: r["case"]["k"])
json.dump({"mismatches": rows}, open(sys.argv[2], "w"))
print(f"[survey] {len(rows)} dots to probe, shortest K first")
PY
gzip -f $R/census-unbounded.json; pack
timeout -k 5 250 python3 -m bitorder probe gemv --cases $R/survey-sorted.json --out $R/gemv --budget 230 > $R/gemv.log 2>&1
tail -2 $R/gemv.log; gzip -f $R/gemv/probe_gemv.json; pack
