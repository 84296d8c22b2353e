#!/usr/bin/env bash
# 2026-11-30 (second session), call 4: the pinned suite with the layout pass again, no budget, so
# that every kernel is timed (call 3 checked them all but timed only four within its budget).
export PYTHONPATH=$PWD/src:/tmp/site BITORDER_CACHE_DIR=/tmp/bitorder-cache; R=$OUT/r; mkdir -p $R
BITORDER_PINNED_LAYOUTS=1 PINNED_ARGS="--quick --jobs 12 --rep 10" timeout 270 scripts/gpu-run $R pinned | tail -16
tar czf $OUT/results.tgz -C $OUT r
