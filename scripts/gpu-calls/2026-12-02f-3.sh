#!/usr/bin/env bash
# 2026-12-02f call 3 (~9.5 min): issue 3's speed on the realistic set on the final tree (bench_gemm.py: CUDA-graph
# medians against torch, geometric mean per group, the plot), then three censuses (plans only, 45,120 cases) of
# seeds never gated, their non-tail fallbacks rerun as a gate on three fresh draws (defaults only), then issue 6's
# paired promotion intervals (BITORDER_FP8_PAIRS=1, second form) against the default on the fp8 realistic set.
# Ordered by priority: what a short device budget cuts is last.
set -u
R=$OUT/r; mkdir -p $R/pairs $R/default
pack() { tar czf $OUT/results.tgz -C $OUT r; }
g() { grep -v '^ ' | grep -v UserWarning | grep -v '^\[' | tail -${1:-6}; }
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the wheel once
unset BITORDER_UNVERIFIED
BENCH_ARGS="--budget 100" timeout -k 5 140 scripts/gpu-run $R bench | grep -v UserWarning | tail -16; pack
export PYTHONPATH=src:/tmp/site
for s in 20261851 20261852 20261853; do
  CENSUS_ARGS="--seed $s --name census-$s" timeout -k 5 60 scripts/gpu-run $R census | g 1; cp $R/census.log $R/census-$s.log
done
gzip -f $R/census-*.json; pack
python3 benchmarks/fallback_cases.py $R/fb.json $R/census-2026185[1-3].json.gz
GATE_ARGS="--jobs 12 --budget 50 --retry-oom 5 --seed 20261855 --rerun $R/fb.json --name fallbacks-fresh" \
  timeout -k 5 80 scripts/gpu-run $R gate | g 6; cp $R/gate.log $R/fallbacks-fresh.log; pack
BITORDER_UNVERIFIED=1 BITORDER_FP8_PAIRS=1 FP8_BENCH_ARGS="--budget 45" timeout -k 5 60 scripts/gpu-run $R/pairs fp8bench | g 8; pack
BITORDER_UNVERIFIED=1 FP8_BENCH_ARGS="--budget 45" timeout -k 5 60 scripts/gpu-run $R/default fp8bench | g 8; pack
