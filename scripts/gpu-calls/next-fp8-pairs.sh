#!/usr/bin/env bash
# Prepared 2026-12-02b for a next session (issue 6, ~3 min): the promoting fp8 chain with BITORDER_FP8_PAIRS=1
# (kernels_fp8.chain8_tile: two promotion intervals' fresh chains issued before either is added, (acc + p0) + p1;
# interpreter-checked against the twin with a designed reassociation fault; compiled for sm_90: 128x128x128 at 8
# warps, TMA, 199 registers, no spill, stages capped by shared memory) against the default, on the realistic set
# (both accumulation modes, seed 8: the same shapes in the same order), bytes compared with torch's per call.
# The speed floor (0.8x torch._scaled_mm above 5 GFLOP) is the question; identical bytes are required either way.
set -u
R=$OUT/r; mkdir -p $R/pairs $R/default
pack() { tar czf $OUT/results.tgz -C $OUT r; }
g() { grep -v '^ ' | grep -v UserWarning | grep -v '^\[' | tail -${1:-8}; }
timeout -k 5 30 scripts/gpu-run $R report > /dev/null 2>&1          # installs the wheel once
export BITORDER_UNVERIFIED=1
BITORDER_FP8_PAIRS=1 FP8_BENCH_ARGS="--budget 45" timeout -k 5 60 scripts/gpu-run $R/pairs fp8bench | g; pack
FP8_BENCH_ARGS="--budget 45" timeout -k 5 60 scripts/gpu-run $R/default fp8bench | g; pack
