#!/usr/bin/env bash
# Session 2026-11-30d, call 7 (one command line; 170 s limit): fp8 survey of cuBLAS's kernels.
R=$OUT/r; mkdir -p $R; timeout 25 scripts/gpu-run $R report >/dev/null 2>&1; SURVEY_ARGS="--budget 110 --fuzz 3000 --want 200" timeout 135 scripts/gpu-run $R survey-fp8 | tail -5; rm -f $R/report*; tar czf $OUT/results.tgz -C $OUT r
