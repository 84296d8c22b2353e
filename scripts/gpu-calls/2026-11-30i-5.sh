#!/usr/bin/env bash
# 2026-11-30i call 5 (the last ~165 s): log_softmax and loop_sum timed on this tree (loop_sum did not fit)
set -u; R=$OUT/r5; mkdir -p $R; BITORDER_PINNED_LAYOUTS=1 PINNED_ARGS="--jobs 14 --rep 3 --budget 215 --kernels log_softmax,loop_sum" timeout -k 10 240 scripts/gpu-run $R pinned | tail -6; tar czf $OUT/results.tgz -C $OUT r5
