#!/usr/bin/env bash
# Next session, call 4 (what is left, ~4-6 min), each job packed as it ends: issue 5's checker gate
# on the corpus GEMMs classed for their launch (--bind: BLOCK_K, num_stages and num_warps twins now
# merge; 24 sampled configurations per kernel, ~5 s of walk each); issue 6's promoting-chain tile
# sweep (bench_fp8 --sweep); then the fp8 gate with the row-wise epilogues the 2026-11-30e probe found exact ((acc*sb)*sa; (acc*sb)*sa + bias).
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
timeout 30 scripts/gpu-run $R report > /dev/null 2>&1
CHECKER_ARGS="--jobs 12 --draws 5 --budget 170 --bind --sample 24 --kernels gemm_fp16,gemm_bf16,gemm_fp16_out_fp32,gemm_e4m3,gemm_bias_relu,gemm_split_k,bmm_fp16,pinned_gemm_colsum" \
  timeout 200 scripts/gpu-run $R checker | tail -3; pack
FP8_BENCH_ARGS="--sweep 8 --sweep-only --budget 80" timeout 100 scripts/gpu-run $R fp8bench | tail -12; pack
BITORDER_FP8_ROWWISE_EPILOGUE="nobias=(acc*sb)*sa;bias=(acc*sb)*sa+bias" FP8_GATE_ARGS="--jobs 12 --fuzz 1500 --budget 120 --seed 20261203" \
  timeout 150 scripts/gpu-run $R fp8gate | tail -8; pack
