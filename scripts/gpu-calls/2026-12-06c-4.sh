#!/usr/bin/env bash
# 2026-12-06c call 4 (issue 5), tree 1d24370: dynamic_frames now groups XBLOCKs as super_blocks groups grids (one
# XBLOCK past 32 programs no longer leaves the rest apart); dynamic_grid_check gains XBLOCK 16 (left apart: 64
# programs of 1024) and 32 (32 programs): dynamic-grid and its planted fault, mutant-dynamic-grid. One archive. Any
# sm_90 card; about 1 min.
#   bash scripts/gpu-calls/2026-12-06c-4.sh      (carry [".whl"], benchmarks/results moved out)
set -u
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name --format=csv,noheader > $R/device.txt 2>&1
timeout -k 5 240 scripts/gpu-run $R dynamic-grid mutant-dynamic-grid > $R/run.log 2>&1
echo "run exit $?" >> $R/run.log
tar czf $OUT/call4.tgz -C $OUT r && rm -rf $R
tar xzf $OUT/call4.tgz -O r/run.log | grep -E "^=== |wrong merges|imports|exit|launches" | cut -c1-300 | tail -40
