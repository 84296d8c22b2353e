#!/usr/bin/env bash
# 2026-12-02g call 3 (issue 3, ~9.5 min): the whole fp16/bf16 gate (45,120 cases: the fuzz per dtype, the realistic
# layers, F.linear with bias, the special values; three draws a shape) on a seed never gated (20261880), on the
# committed tree of this call (the serial / bias empty-partition fallback; segment_k.WIDE and gemv 13 fp16 / 68 bf16
# as candidates, off by default), defaults only (BITORDER_UNVERIFIED unset). A whole gate fits one call (2026-12-02b: 509 s at 14 workers).
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the wheel once
unset BITORDER_UNVERIFIED
GATE_ARGS="--jobs 14 --budget 500 --retry-oom 25 --seed 20261880" timeout -k 5 545 scripts/gpu-run $R gate \
  | grep -v '^ ' | grep -v UserWarning | grep -v '^\[' | tail -14; cp $R/gate.log $R/gate-first.log; pack
