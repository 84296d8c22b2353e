#!/usr/bin/env bash
# 2026-12-01c call 6 (~4 min; issue 3): ground check of the gemv candidate rules fitted from call 5's probe
# (gemv_rule.CANDIDATE_RULES, option 75 bf16 split from 4 outputs): census of two fresh seeds (defaults),
# then their algorithm-13 fallbacks and the probed shapes rerun on fresh draws with BITORDER_UNVERIFIED=1.
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the wheel once
for s in 20261260 20261261; do
  CENSUS_ARGS="--seed $s --budget 60 --name census-$s" timeout -k 5 90 scripts/gpu-run $R census | grep -v UserWarning | tail -2
done; pack
PYTHONPATH=src python3 benchmarks/fallback_cases.py $R/gemv-cases.json $R/census-2026126?.json \
  benchmarks/results/2026-12-01c-gate/gemv-fallback-cases.json --algo 13
BITORDER_UNVERIFIED=1 GATE_ARGS="--jobs 12 --budget 90 --seed 20261262 --rerun $R/gemv-cases.json --name ground-gemv" \
  timeout -k 5 130 scripts/gpu-run $R gate | grep -v '^ ' | grep -v UserWarning | grep -v '^\[' | tail -12; pack
