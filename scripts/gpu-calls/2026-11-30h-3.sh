#!/usr/bin/env bash
set -u
R=$OUT/r; mkdir -p $R
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1
# 2026-11-30h, call 3 (259 s; issue 4): the next three untimed kernels, and the pinned planted fault.
BITORDER_PINNED_LAYOUTS=1 PINNED_ARGS="--jobs 14 --rep 3 --budget 330 --kernels ln_bwd_dw,cross_entropy,loop_sum" timeout -k 10 360 scripts/gpu-run $R pinned | tail -6; tar czf $OUT/results.tgz -C $OUT r
MUTANT_ARGS="" timeout -k 10 150 scripts/gpu-run $R mutant-pinned | tail -4; tar czf $OUT/results.tgz -C $OUT r
