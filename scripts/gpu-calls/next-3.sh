#!/usr/bin/env bash
# Next session, call 3 (~8 min; issue 4): the rows experiment, BITORDER_PINNED_CONVERT_ROWS=1, on the
# row kernels calls 1-2 timed stock (cross_entropy first: 1.111x in 2026-11-30h), same space; then
# the SIMT gemv kernel against cuBLAS on the 14 calls the gemv probe pinned (issue 3).
set -u
R=$OUT/r3; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r3; }
timeout -k 5 30 scripts/gpu-run $R report > /dev/null 2>&1
BITORDER_PINNED_LAYOUTS=1 BITORDER_PINNED_CONVERT_ROWS=1 PINNED_ARGS="--jobs 14 --rep 3 --budget 400 --kernels cross_entropy,softmax,layernorm,log_softmax" \
  timeout -k 10 430 scripts/gpu-run $R pinned | tail -8; pack
mkdir -p $R/gemv; timeout -k 10 100 scripts/gpu-run $R/gemv gemv-check | tail -17; pack
