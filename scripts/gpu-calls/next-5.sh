#!/usr/bin/env bash
# A later call (~9 min): the checker's adversarial draws (issue 5), the fp8 split-K survey for
# `bitorder probe fit` and more of the fp8 gate (issue 6).
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
timeout 40 scripts/gpu-run $R report > /dev/null 2>&1
ADVERSARIAL_ARGS="--jobs 8" timeout 100 scripts/gpu-run $R adversarial | tail -6; pack
SURVEY_ARGS="--budget 100 --fuzz 3000 --want 200" timeout 130 scripts/gpu-run $R survey-fp8 | tail -3; pack
FP8_GATE_ARGS="--jobs 14 --budget 230 --retry-oom 15 --seed 20261202" timeout 270 scripts/gpu-run $R fp8gate | tail -8; pack
