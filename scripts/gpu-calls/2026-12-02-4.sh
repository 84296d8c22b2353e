#!/usr/bin/env bash
# 2026-12-02 call 4 (~6 min; issues 3 and 6). (1) Ground check of the 2026-12-02 probe's gemv candidates (option 107
# bf16; batched dots of options 10, 92, 93, 100, 106 over their recorded K ranges): shapes near call 3's probed cases,
# a census on the default tree, their fallbacks of those keys rerun under BITORDER_UNVERIFIED=1 on fresh draws, then
# the planted fault mutant-probed-h on the same ground. (2) scripts/gpu-calls/2026-12-02-fp8.sh (the fp8 promoting
# chain's PIPE option: sweep and the realistic set with and without), prepared by a helper on the CPU.
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
g() { grep -v '^ ' | grep -v UserWarning | grep -v '^\[' | tail -${1:-6}; }
D=benchmarks/results/2026-12-02-cases
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the wheel once
export PYTHONPATH=src:/tmp/site
python3 benchmarks/neighbors.py $R/nb2.json $D/gemv-left.json --per 100 --seed 20261710
CENSUS_ARGS="--rerun $R/nb2.json --budget 30 --name census-nb2" timeout -k 5 45 scripts/gpu-run $R census | g 1; rm $R/nb2.json
python3 benchmarks/fallback_cases.py $R/nb2-13.json $R/census-nb2.json --algo 13 --options 10,92,93,100,106,107
python3 - $R/nb2-13.json <<'PY'
import json, random, sys
c = json.load(open(sys.argv[1]))["not_reached_cases"]; random.Random(2).shuffle(c)
json.dump({"not_reached_cases": c[:300]}, open(sys.argv[1], "w")); print(f"[nb2] {len(c[:300])} cases")
PY
pack
BITORDER_UNVERIFIED=1 GATE_ARGS="--jobs 12 --budget 55 --retry-oom 5 --seed 20261711 --rerun $R/nb2-13.json --name nb2-ground" \
  timeout -k 5 75 scripts/gpu-run $R gate | g 6; cp $R/gate.log $R/nb2-ground.log; pack
BITORDER_UNVERIFIED=1 GATE_ARGS="--jobs 12 --budget 35 --retry-oom 5 --seed 20261712 --rerun $R/nb2-13.json" \
  timeout -k 5 50 scripts/gpu-run $R mutant-probed-h | g 4; pack
unset PYTHONPATH
OUT=$OUT/fp8 bash scripts/gpu-calls/2026-12-02-fp8.sh
# at most 8 files come back: keep the two tarballs only
mv $OUT/fp8/results.tgz $OUT/fp8-results.tgz; pack; rm -rf $OUT/r $OUT/fp8
