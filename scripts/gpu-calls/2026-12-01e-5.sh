#!/usr/bin/env bash
# 2026-12-01e call 5 (~4.5 min; issue 3): gemvNSP past its bound and option 75 bf16 split calls with 2-3 outputs as
# defaults (promoted after call 4's ground check): a second ground on fresh shapes (a census of the gemv ground,
# new seed; the calls those rules now plan, rerun as the gate checks a case; no BITORDER_* switch), then the
# whole gate's census on this tree (seed 20261410: where its 45,120 cases go now).
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the wheel once
CENSUS_ARGS="--only gemv --fuzz 200000 --bias 8000 --seed 20261430 --budget 60 --name census-gemv2" \
  timeout -k 5 75 scripts/gpu-run $R census | grep -v UserWarning | tail -1
export PYTHONPATH=src:/tmp/site
python3 benchmarks/fallback_cases.py $R/new-nsp.json $R/census-gemv2.json --paths simt --algo 13 --options 10 --outputs 6536:
python3 benchmarks/fallback_cases.py $R/new-75.json $R/census-gemv2.json --paths simt --algo 13 --options 75 --outputs :3 --split yes; pack
GATE_ARGS="--jobs 12 --budget 35 --retry-oom 5 --seed 20261431 --rerun $R/new-nsp.json --name ground-nsp" timeout -k 5 65 scripts/gpu-run $R gate \
  | grep -v '^ ' | grep -v UserWarning | grep -v '^\[' | tail -4; cp $R/gate.log $R/ground-nsp.log; pack
GATE_ARGS="--jobs 12 --budget 25 --retry-oom 5 --seed 20261432 --rerun $R/new-75.json --name ground-75" timeout -k 5 55 scripts/gpu-run $R gate \
  | grep -v '^ ' | grep -v UserWarning | grep -v '^\[' | tail -4; cp $R/gate.log $R/ground-75.log; pack
CENSUS_ARGS="--seed 20261410 --budget 50 --name census-final" timeout -k 5 70 scripts/gpu-run $R census | grep -v UserWarning | tail -1; pack
