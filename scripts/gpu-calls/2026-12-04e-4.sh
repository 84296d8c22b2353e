#!/usr/bin/env bash
# 2026-12-04d call 4 (issue 5, "target 1.0 on GEMMs"), the same tree as calls 1-3: the seven corpus GEMMs and the attention kernel classed for
# their launch (--bind: the launch's integer arguments, so the K loop is walked to its end; --grid), every
# configuration, 5 wide + adversarial draws. 2026-11-30g gated five of the GEMMs with --bind on 59 sampled
# configurations; gemm_split_k, bmm_fp16 and attention_fwd were not reached then.
set -u
R=$OUT/r; mkdir -p $R
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1
CHECKER_ARGS="--jobs 15 --draws 5 --adversarial --grid --bind --budget 400 \
  --kernels gemm_fp16,gemm_bf16,gemm_fp16_out_fp32,gemm_e4m3,gemm_bias_relu,gemm_split_k,bmm_fp16,attention_fwd" \
  timeout -k 5 440 scripts/gpu-run $R/bound checker | tail -4
tar czf $OUT/call4.tgz -C $OUT r --remove-files 2>/dev/null || true
