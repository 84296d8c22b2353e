#!/usr/bin/env bash
# 2026-11-30f, call 4 (the 390 s left): next-4.sh cut to fit, sent inline. It produced nothing: the
# checker job printed no line, `timeout 180` did not end it (its process tree outlived the SIGTERM
# and held the pipe), and the device limit ended the call at 390 s, before the fp8 gate.
set -u; R=$OUT/r; mkdir -p $R; pack() { tar czf $OUT/results.tgz -C $OUT r; }; timeout 30 scripts/gpu-run $R report > /dev/null 2>&1; CHECKER_ARGS="--jobs 12 --draws 5 --budget 150 --bind --sample 24 --kernels gemm_fp16,gemm_bf16,gemm_fp16_out_fp32,gemm_e4m3,gemm_bias_relu,gemm_split_k,bmm_fp16,pinned_gemm_colsum" timeout 180 scripts/gpu-run $R checker | tail -3; pack; BITORDER_FP8_ROWWISE_EPILOGUE="nobias=(acc*sb)*sa;bias=(acc*sb)*sa+bias" FP8_GATE_ARGS="--jobs 12 --fuzz 1500 --budget 105 --seed 20261203" timeout 135 scripts/gpu-run $R fp8gate | tail -8; pack
