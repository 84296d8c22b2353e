#!/usr/bin/env bash
# 2026-12-01f call 1 (~9 min; issue 3): ground check of 2026-12-01e's CPU-only readings under
# BITORDER_UNVERIFIED=1, on fresh shapes and fresh draws, and the first timing of BITORDER_GEMV_PARTS=1:
#  - gemv2N options 1 and 2 (K <= 64) and batched dots answered with options 72/75/94: a census of the gate's gemv
#    ground with ten times the fuzz (fresh seed, no candidate), its fallbacks with those options rerun as the gate
#    checks a case;
#  - algorithm 21's s16816 serial splits with the bias in the last partition: a census of F.linear-with-bias
#    shapes (fresh seed), its algorithm-21 fallbacks (with the final tree's 8) rerun the same way;
#  - split gemv calls timed with and without BITORDER_GEMV_PARTS=1 (the same calls: same seed), then the gate's
#    whole gemv ground with it.
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
g() { grep -v '^ ' | grep -v UserWarning | grep -v '^\[' | tail -${1:-6}; }
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the wheel once
export PYTHONPATH=src:/tmp/site
BITORDER_UNVERIFIED=0 CENSUS_ARGS="--only gemv --fuzz 200000 --bias 8000 --seed 20261500 --budget 75 --name census-gemv" \
  timeout -k 5 100 scripts/gpu-run $R census | grep -v UserWarning | tail -2
python3 benchmarks/fallback_cases.py $R/cand13-cases.json $R/census-gemv.json --algo 13 --options 1,2,72,75,94
BITORDER_UNVERIFIED=0 CENSUS_ARGS="--fuzz 0 --bias 40000 --seed 20261501 --budget 70 --name census-bias" \
  timeout -k 5 95 scripts/gpu-run $R census | grep -v UserWarning | tail -2
python3 benchmarks/fallback_cases.py $R/cand21-cases.json $R/census-bias.json \
  benchmarks/results/2026-12-01e-gate/census-final.json.gz --algo 21; pack
BITORDER_UNVERIFIED=1 GATE_ARGS="--jobs 12 --budget 60 --retry-oom 10 --seed 20261502 --rerun $R/cand13-cases.json --name cand13" \
  timeout -k 5 90 scripts/gpu-run $R gate | g 8; cp $R/gate.log $R/cand13.log; pack
BITORDER_UNVERIFIED=1 GATE_ARGS="--jobs 8 --budget 90 --retry-oom 10 --seed 20261503 --rerun $R/cand21-cases.json --name cand21" \
  timeout -k 5 120 scripts/gpu-run $R gate | g 8; cp $R/gate.log $R/cand21.log; pack
for parts in 0 1; do
  BITORDER_GEMV_PARTS=$parts timeout -k 5 75 python3 benchmarks/bench_simt.py --out $R/simt-parts$parts \
    --census benchmarks/results/2026-12-01e-gate/census-final.json.gz --paths simt --split yes --per-path 30 --budget 50 \
    2>&1 | grep -v UserWarning | tail -3; pack
done
BITORDER_GEMV_PARTS=1 GATE_ARGS="--jobs 12 --budget 70 --retry-oom 10 --seed 20261504 --only gemv --name parts-gemv" \
  timeout -k 5 100 scripts/gpu-run $R gate | g 8; cp $R/gate.log $R/parts-gemv.log; pack
