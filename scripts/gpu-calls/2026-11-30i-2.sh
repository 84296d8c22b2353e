#!/usr/bin/env bash
# Next session, call 2 (~9.5 min; issue 4): the other six pinned kernels on the same tree (with call 1:
# all twelve), then the pinned planted fault on row_sum and on gemm_colsum (through the conversion).
set -u
R=$OUT/r2; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r2; }
timeout -k 5 30 scripts/gpu-run $R report > /dev/null 2>&1
BITORDER_PINNED_LAYOUTS=1 PINNED_ARGS="--jobs 14 --rep 3 --budget 420 --kernels row_sum,col_sum,mid_sum,dot_rows,softmax,log_softmax" \
  timeout -k 10 450 scripts/gpu-run $R pinned | tail -10; pack
MUTANT_ARGS="" timeout -k 10 45 scripts/gpu-run $R mutant-pinned | tail -4; pack
mkdir -p $R/colsum; BITORDER_PINNED_LAYOUTS=1 MUTANT_PINNED_CASE=gemm_colsum timeout -k 10 60 scripts/gpu-run $R/colsum mutant-pinned | tail -4; pack
