#!/usr/bin/env bash
# 2026-12-07e call 3: the soundness gate (2026-12-07e-1.sh's, the default checker) over every configuration of the 17
# kernels whose prmt.b32 configurations the family walk takes since commit 529bd69 (v1 before: their v2 classes are
# new), unbound, 5 wide draws plus the adversarial ones, seed 41.
#   bash scripts/gpu-calls/2026-12-07e-2.sh      (carry [".whl"], benchmarks/results moved out)
set -u
K=pinned_cross_entropy_f16,pinned_col_sum_bf16,pinned_log_softmax_f16,pinned_col_sum_f16,pinned_ln_bwd_dw_bf16
K=$K,pinned_ln_bwd_dw_f16,pinned_softmax_f16,pinned_row_sum_bf16,pinned_row_sum_f16,pinned_mid_sum_bf16
K=$K,pinned_mid_sum_f16,row_mean_var_c2048_bf16,row_mean_var_c2048_f16,row_mean_var_c1024_bf16
K=$K,row_mean_var_c1024_f16,row_mean_var_bf16,row_mean_var_f16
HALF=prmt KERNELS=$K BUDGET=${BUDGET:-330} bash scripts/gpu-calls/2026-12-07e-1.sh
