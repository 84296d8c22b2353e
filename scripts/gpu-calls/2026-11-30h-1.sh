#!/usr/bin/env bash
# 2026-11-30h, call 1 (504 s; issue 4): the prepared next-1.sh: all twelve pinned kernels over their whole
# space, timed at the suite's timing sizes. Six were checked but not timed (budget).
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the wheel once
BITORDER_PINNED_LAYOUTS=1 PINNED_ARGS="--jobs 14 --rep 3 --budget 500" \
  timeout -k 10 530 scripts/gpu-run $R pinned | tail -16; pack
