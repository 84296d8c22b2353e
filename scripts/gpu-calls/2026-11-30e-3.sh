#!/usr/bin/env bash
# Next session, call 3 (~9 min; issue 4): the pinned suite over its whole autotune space (num_warps
# 1 2 4 8 x num_stages 1 2 3 x the kept block x aligned/unaligned), both modes timed (do_bench and
# CUDA graphs), with the layout pass on. Budgeted: it writes what it checked and timed.
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
timeout 40 scripts/gpu-run $R report > /dev/null 2>&1
BITORDER_PINNED_LAYOUTS=1 PINNED_ARGS="--jobs 14 --rep 3 --budget 470" timeout 520 scripts/gpu-run $R pinned | tail -16; pack
