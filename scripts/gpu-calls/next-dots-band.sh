#!/usr/bin/env bash
# Prepared 2026-12-03b for a next session (issue 3, ~5 min, H200): records for the open band and the long dots.
# Census of 260 designed dots (benchmarks/results/2026-12-03b-cases/dots-band.json: bf16 K 95-1,024 at batches 21-47,
# and K 8,193-40,000), then the designed gemv probe of every algorithm-13 answer among them, planned or not (--paths
# cublas,simt), shortest K first. On the CPU afterwards: `bitorder probe gemv-fit <probe_gemv.json.gz> --dots --check`
# says whether the verified option-10 bf16 entries hold in the band (a DISAGREES there is a wrong-bits defect: bound
# those entries' batches at once) and reads the long dots into regions.
#   STAGE=/tmp/oN OUT=$OUT/band bash scripts/gpu-calls/next-dots-band.sh
# DESIGN (a case file) and NAME (its files' suffix) run the same census and probe over another design
# (next-dots-batches.sh).
set -u
R=${STAGE:-$OUT}/r; mkdir -p $R $OUT
pack() { tar czf $OUT/results.tgz -C ${STAGE:-$OUT} r; }
g() { grep -v '^ ' | grep -v UserWarning | grep -v '^\[' | tail -${1:-6}; }
export PYTHONPATH=src:/tmp/site
D=${DESIGN:-benchmarks/results/2026-12-03b-cases/dots-band.json}; N=${NAME:-band}
CENSUS_ARGS="--rerun $D --budget 30 --name census-$N" \
  timeout -k 5 60 scripts/gpu-run $R census | g 1
python3 benchmarks/fallback_cases.py $R/survey-all.json $R/census-$N.json --algo 13 --paths cublas,simt --survey
python3 - $R/survey-all.json $R/survey-$N.json <<'PY'
import json, sys
rows = sorted(json.load(open(sys.argv[1]))["mismatches"], key=lambda r: r["case"]["k"])
json.dump({"mismatches": rows}, open(sys.argv[2], "w"))
print(f"[survey] {len(rows)} dots to probe, shortest K first")
PY
gzip -f $R/census-$N.json; pack
timeout -k 5 250 python3 -m bitorder probe gemv --cases $R/survey-$N.json --out $R/gemv-$N --budget 230 > $R/gemv-$N.log 2>&1
tail -2 $R/gemv-$N.log; gzip -f $R/gemv-$N/probe_gemv.json; pack
