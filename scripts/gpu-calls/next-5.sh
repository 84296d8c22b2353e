#!/usr/bin/env bash
# A later call (~9 min): the checker's adversarial draws (issue 5), the fp8 split-K survey for
# `bitorder probe fit`, the certificate on 1,000 H200 products (issue 7), more of the fp8 gate, and
# fp8 speed with and without TMA for promoting chains (issue 6).
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
timeout 40 scripts/gpu-run $R report > /dev/null 2>&1
ADVERSARIAL_ARGS="--jobs 8" timeout 100 scripts/gpu-run $R adversarial | tail -6; pack
SURVEY_ARGS="--budget 85 --fuzz 3000 --want 200" timeout 110 scripts/gpu-run $R survey-fp8 | tail -3; pack
CERTIFY_ARGS="--honest 1000" timeout 120 scripts/gpu-run $R certify | tail -4; pack
FP8_GATE_ARGS="--jobs 14 --budget 100 --retry-oom 10 --seed 20261202" timeout 125 scripts/gpu-run $R fp8gate | tail -8; pack
mkdir -p $R/fp8-notma; FP8_BENCH_ARGS="--budget 30" timeout 45 scripts/gpu-run $R fp8bench | tail -6; pack
BITORDER_FP8_TMA=0 FP8_BENCH_ARGS="--budget 30" timeout 45 scripts/gpu-run $R/fp8-notma fp8bench | tail -6; pack
