#!/usr/bin/env bash
# 2026-12-01f call 5 (~3 min; issue 3): ground check of the 2026-12-01f probe's candidates (gemv_rule.CANDIDATES_2026_12_01F,
# BATCHED_DOT_CANDIDATES) under BITORDER_UNVERIFIED=1 on fresh shapes and draws: a census of the gate's gemv ground with
# twenty times the fuzz (fresh seed, no candidate), its algorithm-13 fallbacks and the whole gate's (call 2-3) rerun as
# the gate checks a case; then their planted fault on the same cases.
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
g() { grep -v '^ ' | grep -v UserWarning | grep -v '^\[' | tail -${1:-6}; }
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the wheel once
export PYTHONPATH=src:/tmp/site
BITORDER_UNVERIFIED=0 CENSUS_ARGS="--only gemv --fuzz 400000 --bias 16000 --seed 20261530 --budget 45 --name census-gemv" \
  timeout -k 5 70 scripts/gpu-run $R census | grep -v UserWarning | tail -2
python3 benchmarks/fallback_cases.py $R/cand-cases.json $R/census-gemv.json benchmarks/results/2026-12-01f-gate/gate.json.gz \
  benchmarks/results/2026-12-01f-gate/gate-rest.json --algo 13; pack
BITORDER_UNVERIFIED=1 GATE_ARGS="--jobs 12 --budget 50 --retry-oom 10 --seed 20261531 --rerun $R/cand-cases.json --name cand" \
  timeout -k 5 80 scripts/gpu-run $R gate | g 10; cp $R/gate.log $R/cand.log; pack
BITORDER_UNVERIFIED=1 GATE_ARGS="--jobs 12 --budget 30 --retry-oom 10 --seed 20261532 --rerun $R/cand-cases.json" \
  timeout -k 5 55 scripts/gpu-run $R mutant-probed-f | g 5; pack
