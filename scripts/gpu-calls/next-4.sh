#!/usr/bin/env bash
# Next session, call 4 if the budget allows (~5 min): the pinned suite with the layout pass
# (BITORDER_PINNED_LAYOUTS=1): invariance of every pinned kernel across the quick space, equal
# to the CPU reference, and pinned/free time now that the pinned chains are laid out.
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
export BITORDER_PINNED_LAYOUTS=1
PINNED_ARGS="--quick --jobs 12 --budget 240 --rep 10" timeout 300 scripts/gpu-run $R pinned | tail -16; pack
