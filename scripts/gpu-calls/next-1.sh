#!/usr/bin/env bash
# Next session, call 1 (~9.5 min; issue 4): all twelve pinned kernels over their whole space, timed at
# the suite's timing sizes (pinned_kernels.TIMING: larger runtime sizes, the checked binaries; the
# 2026-11-30g times sat on the launch floor), CUDA-graph ratio first, each time's configuration
# recorded, one timing per distinct binary. The suite writes every checked kernel if stopped.
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the wheel once
BITORDER_PINNED_LAYOUTS=1 PINNED_ARGS="--jobs 14 --rep 3 --budget 500" \
  timeout -k 10 530 scripts/gpu-run $R pinned | tail -16; pack
