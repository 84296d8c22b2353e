#!/usr/bin/env bash
# Next session, call 3 (~9.5 min): the rows experiment, BITORDER_PINNED_CONVERT_ROWS=1, on three row
# kernels calls 1-2 timed stock (cross_entropy first: 1.111x in 2026-11-30h; issue 4); then the SIMT
# gemv kernel against cuBLAS on the 14 calls the gemv probe pinned, and the gemv rule table on fresh
# shapes (issue 3).
set -u
R=$OUT/r3; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r3; }
timeout -k 5 30 scripts/gpu-run $R report > /dev/null 2>&1
BITORDER_PINNED_LAYOUTS=1 BITORDER_PINNED_CONVERT_ROWS=1 PINNED_ARGS="--jobs 14 --rep 3 --budget 300 --kernels cross_entropy,softmax,layernorm" \
  timeout -k 10 330 scripts/gpu-run $R pinned | tail -6; pack
mkdir -p $R/gemv; timeout -k 10 70 scripts/gpu-run $R/gemv gemv-check | tail -17; pack
timeout -k 10 50 scripts/gpu-run $R/gemv mutant-gemv | tail -4; pack          # its planted fault
mkdir -p $R/gemv-rule; GEMV_CHECK_ARGS="--rule 300 --budget 60" timeout -k 10 100 scripts/gpu-run $R/gemv-rule gemv-check | tail -14; pack
