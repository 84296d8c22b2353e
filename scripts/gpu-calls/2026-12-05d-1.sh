#!/usr/bin/env bash
# Run 2026-12-05 (fourth session, "05d") on an H100; written 2026-12-05 (second session) for the next session lent a device (that one was not:
# `run` answered "no new device machine is lent at present"). No H200 could be started in 05d: results in 2026-12-05d-gpu.
# Issue 5: the element folds (check/storefold.py, --fold-stores: loops that store, one-hot sums) gated on every
# corpus kernel whose answer they change on this machine (benchmarks/results/2026-12-05b-checker-cpu: the two
# TorchInductor cross-entropy backwards, the looped centring kernel and its fp16/bf16 twins) and on the
# online softmaxes (a storing loop over a runtime bound: not folded, answers unchanged), adversarial draws, the
# walk's default limits; then the planted fault mutant-fold-stores (a storing loop's template keyed without its
# value, on centered_rows, whose configurations differ in bits: it must show wrong merges).
#   bash scripts/gpu-calls/planned-fold-stores.sh      (carry [".whl"])
set -u
O=$OUT; S=/tmp/o1; R=$S/r; mkdir -p $R
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1
K=inductor_cross_entropy_t8_red0_bwd,inductor_cross_entropy_t512_red0_bwd,centered_rows,centered_rows_f16,centered_rows_bf16,online_softmax,online_softmax_f16,online_softmax_bf16
CHECKER_ARGS="--jobs 15 --draws 5 --adversarial --grid --fold-stores --budget 300 --kernels $K" \
  timeout -k 5 340 scripts/gpu-run $R/stores checker | tail -3
tar czf $O/call1.tgz -C $S r
timeout -k 5 200 scripts/gpu-run $S/r mutant-fold-stores | tail -5
tar czf $O/call1.tgz -C $S r
