#!/usr/bin/env bash
# Next session, call 1 (~9 min). Issue 3: the default tiles (waves) against BITORDER_TILES=auto as
# refined after 2026-11-30e (64x64 tiles by TMA; 64x128 TMA tiles at M <= 128) on all 120 realistic
# shapes (CUDA graphs); compare_bench writes the choice for calls 2 and 3 to /tmp/keep/tiles.
# Issue 4: the six pinned kernels 2026-11-30e checked over the whole space but did not time
# (cross_entropy on its new standard-normal draws), both modes timed, layout pass on; and dot_rows
# again, against its new CPU reference.
set -u
R=$OUT/r; mkdir -p $R /tmp/keep $R/default $R/auto $R/pinned
pack() { tar czf $OUT/results.tgz -C $OUT r; }
timeout 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the wheel once
BENCH_ARGS="--budget 88" timeout 110 scripts/gpu-run $R/default bench | tail -3; pack
BITORDER_TILES=auto BENCH_ARGS="--budget 88" timeout 110 scripts/gpu-run $R/auto bench | tail -3; pack
if python3 benchmarks/compare_bench.py $R/default/bench.json $R/auto/bench.json --json $R/compare.json; then
  echo auto > /tmp/keep/tiles; else echo waves > /tmp/keep/tiles; fi; pack
BITORDER_PINNED_LAYOUTS=1 PINNED_ARGS="--jobs 14 --rep 3 --budget 285 --kernels layernorm,rmsnorm,ln_bwd_dw,cross_entropy,gemm_colsum,loop_sum,dot_rows" \
  timeout 315 scripts/gpu-run $R/pinned pinned | tail -10; pack
