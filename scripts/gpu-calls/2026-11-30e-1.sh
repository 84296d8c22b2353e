#!/usr/bin/env bash
# Next session, call 1 (~9.5 min). Issue 3: the default tiles (waves) against BITORDER_TILES=auto
# on the realistic set (CUDA graphs); compare_bench writes the choice for call 2's gate to
# /tmp/keep/tiles. Issue 6: the row-wise epilogue probe with the 2026-11-30d misses and skinny shapes.
# Issue 7: the twin gate, 2,000 replayed shapes per 16-bit dtype and 700 per fp8 (mode, output) pair
# (2,100 per mode), with the arch-profile entries it covered. Then the fp16 sweep of the slowest shapes.
set -u
R=$OUT/r; mkdir -p $R /tmp/keep $R/default $R/auto
pack() { tar czf $OUT/results.tgz -C $OUT r; }
timeout 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the wheel once
BENCH_ARGS="--budget 70" timeout 95 scripts/gpu-run $R/default bench | tail -3; pack
BITORDER_TILES=auto BENCH_ARGS="--budget 70" timeout 95 scripts/gpu-run $R/auto bench | tail -3; pack
if python3 benchmarks/compare_bench.py $R/default/bench.json $R/auto/bench.json --json $R/compare.json; then
  echo auto > /tmp/keep/tiles; else echo waves > /tmp/keep/tiles; fi; pack
timeout 40 scripts/gpu-run $R rowwise | tail -12; pack
TWIN_ARGS="--count 2000 --fp8 700 --budget 180" timeout 205 scripts/gpu-run $R twin | tail -2; pack
BENCH_ARGS="--dtypes fp16 --sweep 9 --sweep-only --budget 90 --sweep-shapes 128x6144x4096,2048x2304x768,512x4672x4544,512x4096x14336,512x3584x3584,128x8192x8192,512x4096x4096,128x15360x5120,512x10240x8192" \
  timeout 105 scripts/gpu-run $R/sweep bench | tail -10; pack
