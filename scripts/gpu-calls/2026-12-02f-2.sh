#!/usr/bin/env bash
# 2026-12-02f call 2 (issue 3, ~9.5 min): the whole fp16/bf16 gate (45,120 cases: the fuzz per dtype, the realistic
# layers, F.linear with bias, the special values; three draws a shape) on a seed never gated (20261850), on the
# tree after call 1 (segment-K's verified flags as call 1 decided: see the results README), defaults only
# (BITORDER_UNVERIFIED unset). A whole gate fits one call (2026-12-02b: 509 s at 14 workers).
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the wheel once
unset BITORDER_UNVERIFIED
GATE_ARGS="--jobs 14 --budget 500 --retry-oom 25 --seed 20261850" timeout -k 5 545 scripts/gpu-run $R gate \
  | grep -v '^ ' | grep -v UserWarning | grep -v '^\[' | tail -14; cp $R/gate.log $R/gate-first.log; pack
