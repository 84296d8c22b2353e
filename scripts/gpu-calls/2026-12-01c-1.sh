#!/usr/bin/env bash
# 2026-12-01c call 1 (~9 min; issue 3): the ground check of this session's candidates for the gate's
# last fallbacks (algorithm 56 as magma's seq order, 41/42 as nvjet's chain, 21/35 as CUTLASS's k16
# splits, algorithm 14 with M = 1 as a dot per output, gemmSN TN with a bias, gemmk1 K = 1):
# census of two fresh seeds (defaults: where the fallbacks are), then those cases and the 2026-12-01b
# gate's fallbacks rerun on fresh draws with BITORDER_UNVERIFIED=1; gemmSN TN's bias "out" on its
# cases; gemmk1's signed zeros (probe_k1); a survey of the 21/35 cases for `bitorder probe fit`.
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the wheel once
for s in 20261240 20261241; do
  CENSUS_ARGS="--seed $s --budget 60 --name census-$s" timeout -k 5 90 scripts/gpu-run $R census | grep -v UserWarning | tail -3
done; pack
export PYTHONPATH=src:/tmp/site
python3 benchmarks/fallback_cases.py $R/ground-cases.json $R/census-2026124?.json benchmarks/results/2026-12-01b-gate/gate.json.gz
python3 benchmarks/fallback_cases.py $R/sn-bias-cases.json $R/census-2026124?.json benchmarks/results/2026-12-01b-gate/gate.json.gz --algo 11
python3 benchmarks/fallback_cases.py $R/split-cases.json $R/census-2026124?.json benchmarks/results/2026-12-01b-gate/gate.json.gz --algo 21,35 --survey
export BITORDER_UNVERIFIED=1
GATE_ARGS="--jobs 12 --budget 200 --retry-oom 20 --seed 20261242 --rerun $R/ground-cases.json --name ground" \
  timeout -k 5 250 scripts/gpu-run $R gate | grep -v '^ ' | grep -v UserWarning | grep -v '^\[' | tail -25; pack
BITORDER_SN_TN_BIAS=out GATE_ARGS="--jobs 6 --budget 30 --seed 20261243 --rerun $R/sn-bias-cases.json --name ground-sn-out" \
  timeout -k 5 60 scripts/gpu-run $R gate | grep -v '^ ' | grep -v UserWarning | grep -v '^\[' | tail -8; pack
timeout -k 5 60 python3 benchmarks/probe_k1.py --out $R 2>&1 | grep -v UserWarning | tail -20; pack
SURVEY_ARGS="--cases $R/split-cases.json --budget 70 --name survey-split" timeout -k 5 100 scripts/gpu-run $R survey | grep -v UserWarning | tail -4; pack
