#!/usr/bin/env bash
# 2026-12-05d call 2 (issue 5): the tree that lands the element folds (storefold.STORES on by default, selp of
# equal integers their value) gated as it is, no switch given, on the kernels whose answers the folds change and
# the online softmaxes: the walk's default limits, then raised as 2026-12-05 call 2 raised them.
#   bash scripts/gpu-calls/2026-12-05d-2.sh      (carry [".whl"])
set -u
O=$OUT; S=/tmp/o2; R=$S/r; mkdir -p $R
K=inductor_cross_entropy_t8_red0_bwd,inductor_cross_entropy_t512_red0_bwd,centered_rows,centered_rows_f16,centered_rows_bf16,online_softmax,online_softmax_f16,online_softmax_bf16
CHECKER_ARGS="--jobs 15 --draws 5 --adversarial --grid --budget 180 --kernels $K" \
  timeout -k 5 200 scripts/gpu-run $R/default checker | tail -2
tar czf $O/call2.tgz -C $S r
CHECKER_ARGS="--jobs 15 --draws 5 --adversarial --grid --steps 200000 --nodes 20000000 --budget 260 --kernels $K" \
  timeout -k 5 280 scripts/gpu-run $R/raised checker | tail -2
tar czf $O/call2.tgz -C $S r
