#!/usr/bin/env bash
# 2026-12-05b call 1 (issue 5): the storing-loop fold (check/storefold.py, --fold-stores) gated on every corpus kernel
# with a constant-trip loop that stores (TorchInductor's two cross-entropy backwards, the new looped centring kernel
# and its fp16/bf16 twins) and on the online softmaxes (a storing loop over a runtime bound: not folded, answers
# unchanged), adversarial draws, the walk's default limits; then the planted fault mutant-fold-stores.
#   bash scripts/gpu-calls/2026-12-05b-1.sh      (carry [".whl"])
set -u
O=$OUT; S=/tmp/o1; R=$S/r; mkdir -p $R
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1
K=inductor_cross_entropy_t8_red0_bwd,inductor_cross_entropy_t512_red0_bwd,centered_rows,centered_rows_f16,centered_rows_bf16,online_softmax,online_softmax_f16,online_softmax_bf16
CHECKER_ARGS="--jobs 15 --draws 5 --adversarial --grid --fold-stores --budget 300 --kernels $K" \
  timeout -k 5 340 scripts/gpu-run $R/stores checker | tail -3
tar czf $O/call1.tgz -C $S r
timeout -k 5 200 scripts/gpu-run $S/r mutant-fold-stores | tail -5
tar czf $O/call1.tgz -C $S r
