#!/usr/bin/env bash
set -u
R=$OUT/r; mkdir -p $R
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1
# 2026-11-30h, call 5 (255 s; issues 5, 6): the checker unbound on the six pinned kernels rewritten on shared
# math; the fp8 gate with the row-wise epilogues, seed 20261203.
CHECKER_ARGS="--jobs 14 --draws 5 --budget 90 --kernels pinned_softmax,pinned_log_softmax,pinned_layernorm,pinned_rmsnorm,pinned_cross_entropy,pinned_gemm_colsum" timeout -k 10 120 scripts/gpu-run $R/pinned-checker checker | tail -8; tar czf $OUT/results.tgz -C $OUT r
BITORDER_FP8_ROWWISE_EPILOGUE="nobias=(acc*sb)*sa;bias=(acc*sb)*sa+bias" FP8_GATE_ARGS="--jobs 12 --fuzz 1500 --budget 180 --seed 20261203" timeout -k 10 210 scripts/gpu-run $R fp8gate | tail -8; tar czf $OUT/results.tgz -C $OUT r
