#!/usr/bin/env bash
# 2026-12-01c call 4 (~7 min; issue 3, data for the next session): `bitorder probe survey` of the 189 cases
# the whole 2026-12-01c gate still sent to cuBLAS (nvjet tail drops left out), families interleaved so a
# budget cut still records each: kernels, the answer, walks, sampled bits (for `bitorder probe fit`).
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the wheel once
SURVEY_ARGS="--cases benchmarks/results/2026-12-01c-gate/fallback-survey-cases.json --budget ${BUDGET:-330} --name survey-fallback" \
  timeout -k 5 $(( ${BUDGET:-330} + 40 )) scripts/gpu-run $R survey | grep -v UserWarning | tail -4; pack
