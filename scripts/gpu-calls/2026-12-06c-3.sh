#!/usr/bin/env bash
# 2026-12-06c call 3 (issue 5), tree with super_blocks' new grouping (a (y, z)'s grids over the common divisor the
# most of them reach within 32 programs, the rest grouped again): the Inductor cache checks on which it changes
# classes (static: the cross-entropy reductions over 8/64/128/512 programs; dynamic run: the MLP backward column sums
# over 6/24/96/768 and like) and their planted fault, and dynamic-grid again on this tree:
# inductor-cache-wide, inductor-dynamic, mutant-inductor-cache-sblock, dynamic-grid. One archive. Any sm_90 card;
# about 5 min.
#   bash scripts/gpu-calls/2026-12-06c-3.sh      (carry [".whl"], benchmarks/results moved out)
set -u
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name --format=csv,noheader > $R/device.txt 2>&1
timeout -k 5 480 scripts/gpu-run $R inductor-cache-wide inductor-dynamic mutant-inductor-cache-sblock dynamic-grid > $R/run.log 2>&1
echo "run exit $?" >> $R/run.log
tar czf $OUT/call3.tgz -C $OUT r && rm -rf $R
tar xzf $OUT/call3.tgz -O r/run.log | grep -E "^=== |wrong merges|imports|exit" | cut -c1-300 | tail -30
