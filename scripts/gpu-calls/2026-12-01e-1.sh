#!/usr/bin/env bash
# 2026-12-01e call 1 (~6 min; issue 3): ground check of the 2026-12-01d CPU-only readings, under
# BITORDER_UNVERIFIED=1, on fresh shapes and fresh draws: the 14 gemv candidate rules (a census of the gate's
# gemv ground with ten times the fuzz, fresh seed; its algorithm-13 fallbacks rerun as the gate checks a case)
# and gemmSN's 2-lane NN kernel banked every 256 past K = 256 (sn_check on row-major A and B, K >= 257).
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the wheel once
BITORDER_UNVERIFIED=0 CENSUS_ARGS="--only gemv --fuzz 200000 --bias 8000 --seed 20261400 --budget 80 --name census-gemv" \
  timeout -k 5 110 scripts/gpu-run $R census | grep -v UserWarning | tail -2
export PYTHONPATH=src:/tmp/site
python3 benchmarks/fallback_cases.py $R/cand-cases.json $R/census-gemv.json --algo 13; pack
BITORDER_UNVERIFIED=1 GATE_ARGS="--jobs 12 --budget 110 --retry-oom 10 --seed 20261401 --rerun $R/cand-cases.json --name cand" \
  timeout -k 5 150 scripts/gpu-run $R gate | grep -v '^ ' | grep -v UserWarning | grep -v '^\[' | tail -10; cp $R/gate.log $R/cand.log; pack
timeout -k 5 110 python3 benchmarks/sn_check.py --out $R --layouts nn --min-k 257 --paths rows --budget 85 --seed 20261402 2>&1 \
  | grep -v UserWarning | tail -6; pack
