#!/usr/bin/env bash
# 2026-12-01f call 6 (~2.5 min; issue 3): the 2026-12-01f probe's rules as defaults (no BITORDER_UNVERIFIED), checked
# again on another fresh census of the gemv ground (the calls now planned with those options, rerun as the gate
# checks a case), and the census of the final tree on the whole gate's 45,120 cases (seed 20261510: where they go).
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
g() { grep -v '^ ' | grep -v UserWarning | grep -v '^\[' | tail -${1:-6}; }
timeout -k 5 35 scripts/gpu-run $R report > /dev/null 2>&1          # installs the wheel once
export PYTHONPATH=src:/tmp/site
CENSUS_ARGS="--only gemv --fuzz 400000 --bias 16000 --seed 20261540 --budget 25 --name census-gemv" \
  timeout -k 5 45 scripts/gpu-run $R census | grep -v UserWarning | tail -1
python3 benchmarks/fallback_cases.py $R/again-cases.json $R/census-gemv.json --paths simt,dots \
  --options 2,10,32,33,40,42,48,52,63,69,74,83,86,88,89,95,97,102,111; pack
GATE_ARGS="--jobs 12 --budget 30 --retry-oom 10 --seed 20261541 --rerun $R/again-cases.json --name again" \
  timeout -k 5 50 scripts/gpu-run $R gate | g 8; cp $R/gate.log $R/again.log; pack
CENSUS_ARGS="--seed 20261510 --budget 30 --name census-final" timeout -k 5 45 scripts/gpu-run $R census | grep -v UserWarning | tail -1; pack
