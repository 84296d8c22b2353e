#!/usr/bin/env bash
# Next session, call 1 (~8.5 min; issue 4): the six pinned kernels 2026-11-30h timed last, on this tree:
# gemm_colsum now with its accumulator converted once (bitorder.compiler.convert), and the five
# beside it. Whole space, timing sizes, CUDA-graph ratio first.
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the wheel once
BITORDER_PINNED_LAYOUTS=1 PINNED_ARGS="--jobs 14 --rep 3 --budget 500 --kernels gemm_colsum,cross_entropy,layernorm,rmsnorm,ln_bwd_dw,loop_sum" \
  timeout -k 10 530 scripts/gpu-run $R pinned | tail -10; pack
