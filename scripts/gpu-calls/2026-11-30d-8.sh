#!/usr/bin/env bash
# Session 2026-11-30d, call 8 (one command line; 130 s limit): fp8 gate, second seed, no row-wise candidate.
R=$OUT/r; mkdir -p $R; timeout 20 scripts/gpu-run $R report >/dev/null 2>&1; FP8_GATE_ARGS="--jobs 14 --budget 75 --retry-oom 5 --seed 20261202" timeout 100 scripts/gpu-run $R fp8gate | tail -6; rm -f $R/report*; tar czf $OUT/results.tgz -C $OUT r
