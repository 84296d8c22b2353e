#!/usr/bin/env bash
set -u
R=$OUT/r; mkdir -p $R
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1
# 2026-11-30h, call 2 (237 s; issue 4): the three kernels call 1 did not time, first half.
BITORDER_PINNED_LAYOUTS=1 PINNED_ARGS="--jobs 14 --rep 3 --budget 520 --kernels layernorm,rmsnorm,gemm_colsum" timeout -k 10 550 scripts/gpu-run $R pinned | tail -6; tar czf $OUT/results.tgz -C $OUT r
