#!/usr/bin/env bash
# Next session, call 3 (~4 min; issue 6): the fp8 gate with the row-wise epilogues the 2026-11-30e
# probe found exact, on fresh draws.
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
timeout -k 5 30 scripts/gpu-run $R report > /dev/null 2>&1
BITORDER_FP8_ROWWISE_EPILOGUE="nobias=(acc*sb)*sa;bias=(acc*sb)*sa+bias" FP8_GATE_ARGS="--jobs 12 --fuzz 1500 --budget 180 --seed 20261203" \
  timeout -k 10 210 scripts/gpu-run $R fp8gate | tail -8; pack
