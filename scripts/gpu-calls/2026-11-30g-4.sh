#!/usr/bin/env bash
# 2026-11-30, seventh session, call 4 (written at the call; 434 s of device time were left):
# the three pinned kernels call 3's budget checked but did not time, checked again and timed
# with two repetitions. Issue 4.
R=$OUT/r; mkdir -p $R; timeout -k 5 30 scripts/gpu-run $R report > /dev/null 2>&1; BITORDER_PINNED_LAYOUTS=1 PINNED_ARGS="--jobs 14 --rep 2 --budget 370 --kernels log_softmax,gemm_colsum,loop_sum" timeout -k 10 390 scripts/gpu-run $R pinned | tail -6; tar czf $OUT/results.tgz -C $OUT r
