#!/usr/bin/env bash
# 2026-12-05g call 9 (issue 5): the prune checks again after prune(grid=) came to take its frames from
# prune.launch_frames (a refactor): the prune check, the grid prune check and its planted fault, on the final tree.
# Any sm_90 card; about 1 min.
#   bash scripts/gpu-calls/2026-12-05g-9.sh      (carry [".whl"], benchmarks/results moved out)
set -u
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name --format=csv,noheader > $R/device.txt 2>&1
timeout -k 5 300 scripts/gpu-run $R prune-check prune-grid-check mutant-prune-grid-check > $R/gpu-run.log 2>&1
echo "gpu-run exit $?" >> $R/gpu-run.log
grep -E "^=== |exit code|kept_that_differ|imports" $R/gpu-run.log | cut -c1-300 | tail -12
