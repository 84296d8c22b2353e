#!/usr/bin/env bash
# 2026-12-02c call 1 (issue 4, ~9 min), from next-pinned-b.sh, part b of 2: the pinned suite under the layout pass's
# two conversions (BITORDER_PINNED_CONVERT_ROWS=1 BITORDER_PINNED_CONVERT_SHUFFLE=1), every kernel over its whole
# space (invariance at the check and timing sizes, the CPU reference, free patterns), timed pinned against free,
# best over best. cross_entropy ran 2026-12-02b (1.057, benchmarks/results/2026-12-02b-gpu/call4): not repeated.
# Kernels here: layernorm,rmsnorm,gemm_colsum,ln_bwd_dw,loop_sum. If all twelve are within 10% with a median within 3%, make both switches the pass's default
# and run next-pinned-mutant.sh on that tree.
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
BITORDER_PINNED_LAYOUTS=1 BITORDER_PINNED_CONVERT_ROWS=1 BITORDER_PINNED_CONVERT_SHUFFLE=1 \
  PINNED_ARGS="--jobs 14 --rep 3 --budget 520 --kernels layernorm,rmsnorm,gemm_colsum,ln_bwd_dw,loop_sum" timeout -k 10 560 scripts/gpu-run $R pinned | tail -16; pack
