#!/usr/bin/env bash
# Prepared 2026-12-02 for the next session (issue 4), part 2 of 3: the whole pinned suite with the layout pass's
# two conversions that the H200 timed best on 2026-12-02 (BITORDER_PINNED_CONVERT_ROWS=1: cross_entropy 1.057x with
# the shuffles at five configurations; BITORDER_PINNED_CONVERT_SHUFFLE=1: gemm_colsum 1.098x over its whole space):
# every kernel over its whole space (invariance at the check and timing sizes, the CPU reference, free patterns) and
# timed, pinned against free, best over best. Kernels: layernorm,rmsnorm,gemm_colsum. If all twelve are within 10% with a median within 3%,
# make both switches the pass's default (one conversion form for everyone) and rerun mutant-pinned on it.
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
BITORDER_PINNED_LAYOUTS=1 BITORDER_PINNED_CONVERT_ROWS=1 BITORDER_PINNED_CONVERT_SHUFFLE=1 \
  PINNED_ARGS="--jobs 14 --rep 3 --budget 500 --kernels layernorm,rmsnorm,gemm_colsum" timeout -k 10 530 scripts/gpu-run $R pinned | tail -16; pack
