#!/usr/bin/env bash
# Next session, call 3 (~9.8 min): the fp8 gate (restructured fp8 kernel, wave tiles, row-wise
# query with scale pointers), the twin gate with fp8 (crash fixed), fp8 speed without and with TMA.
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
timeout 40 scripts/gpu-run $R report > /dev/null 2>&1
FP8_GATE_ARGS="--jobs 14 --budget 290 --retry-oom 20" timeout 340 scripts/gpu-run $R fp8gate | tail -16; pack
TWIN_ARGS="--count 2000 --fp8 667 --budget 95" timeout 120 scripts/gpu-run $R twin | tail -3; pack
FP8_BENCH_ARGS="--budget 30" timeout 45 scripts/gpu-run $R fp8bench | tail -6; pack
mkdir -p $R/tma; BITORDER_TMA=1 FP8_BENCH_ARGS="--budget 30" timeout 45 scripts/gpu-run $R/tma fp8bench | tail -6; pack
