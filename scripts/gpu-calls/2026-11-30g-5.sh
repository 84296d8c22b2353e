#!/usr/bin/env bash
# 2026-11-30, seventh session, call 5 (written at the call; 171 s were left): issue 5's checker
# gate on the corpus GEMMs classed for their launch (--bind); the budget reached 5 of the 10 kernels.
R=$OUT/r; mkdir -p $R; timeout -k 5 25 scripts/gpu-run $R report > /dev/null 2>&1; CHECKER_ARGS="--jobs 14 --draws 5 --budget 95 --bind --sample 12 --kernels gemm_fp16,gemm_bf16,gemm_fp16_out_fp32,gemm_e4m3,gemm_bias_relu,gemm_split_k,bmm_fp16,pinned_gemm_colsum,pinned_loop_sum,online_softmax" timeout -k 10 115 scripts/gpu-run $R checker | tail -14; tar czf $OUT/results.tgz -C $OUT r
