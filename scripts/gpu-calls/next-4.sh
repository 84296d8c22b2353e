#!/usr/bin/env bash
# Next session, call 4 (what is left, ~2-4 min): issue 5's checker gate on the corpus GEMMs classed
# for their launch (--bind), 12 sampled configurations per kernel, split into tasks of 4
# configurations over 14 workers (a bound walk takes ~5 s per configuration); then, if time is
# left, the checker gate on the six rewritten pinned kernels, then issue 6's fp8 gate with the row-wise epilogues the 2026-11-30e probe found exact.
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
timeout -k 5 30 scripts/gpu-run $R report > /dev/null 2>&1
CHECKER_ARGS="--jobs 14 --draws 5 --budget 110 --bind --sample 12 --kernels gemm_fp16,gemm_bf16,gemm_fp16_out_fp32,gemm_e4m3,gemm_bias_relu,gemm_split_k,bmm_fp16,pinned_gemm_colsum,pinned_loop_sum,online_softmax" \
  timeout -k 10 150 scripts/gpu-run $R checker | tail -12; pack
# the six pinned kernels rewritten on shared math (2026-11-30f): the stored truth is of their old code
CHECKER_ARGS="--jobs 14 --draws 5 --budget 70 --kernels pinned_softmax,pinned_log_softmax,pinned_layernorm,pinned_rmsnorm,pinned_cross_entropy,pinned_gemm_colsum" \
  timeout -k 10 100 scripts/gpu-run $R/pinned-checker checker | tail -8; pack
BITORDER_FP8_ROWWISE_EPILOGUE="nobias=(acc*sb)*sa;bias=(acc*sb)*sa+bias" FP8_GATE_ARGS="--jobs 12 --fuzz 1500 --budget 120 --seed 20261203" \
  timeout -k 10 150 scripts/gpu-run $R fp8gate | tail -8; pack
