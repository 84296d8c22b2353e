#!/usr/bin/env bash
# A later call (~9.5 min; when a session has the time): the checker's soundness gate with the
# comparison normal forms and bit-tracked predicates, its adversarial draws, TorchInductor's
# kernels for the corpus, and the fp8 split-K survey for `bitorder probe fit`.
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
timeout 40 scripts/gpu-run $R report > /dev/null 2>&1
CHECKER_ARGS="--jobs 12 --draws 5 --budget 150" timeout 180 scripts/gpu-run $R checker | tail -3; pack
ADVERSARIAL_ARGS="--jobs 8" timeout 100 scripts/gpu-run $R adversarial | tail -6; pack
timeout 120 scripts/gpu-run $R capture | tail -4; pack
SURVEY_ARGS="--budget 100 --fuzz 3000 --want 200" timeout 130 scripts/gpu-run $R survey-fp8 | tail -3; pack
