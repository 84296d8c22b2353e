#!/usr/bin/env bash
set -u
R=$OUT/r; mkdir -p $R
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1
# 2026-11-30h, call 6 (214 s; issue 6): the fp8 gate again with the row-wise epilogues, fresh seed 20261204.
BITORDER_FP8_ROWWISE_EPILOGUE="nobias=(acc*sb)*sa;bias=(acc*sb)*sa+bias" FP8_GATE_ARGS="--jobs 12 --fuzz 1500 --budget 200 --seed 20261204" timeout -k 10 230 scripts/gpu-run $R fp8gate | tail -30; tar czf $OUT/results.tgz -C $OUT r
