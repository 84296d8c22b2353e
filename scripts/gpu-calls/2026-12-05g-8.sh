#!/usr/bin/env bash
# 2026-12-05g call 8 (issue 5): prune_gpu_check.py after its two checks came to share _compare (a refactor of the
# scripts calls 1 and 6 ran): the prune check, the grid prune check and its planted fault, on the final tree.
# Any sm_90 card; about 1 min.
#   bash scripts/gpu-calls/2026-12-05g-8.sh      (carry [".whl"], benchmarks/results moved out)
set -u
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name --format=csv,noheader > $R/device.txt 2>&1
timeout -k 5 300 scripts/gpu-run $R prune-check prune-grid-check mutant-prune-grid-check > $R/gpu-run.log 2>&1
echo "gpu-run exit $?" >> $R/gpu-run.log
grep -E "^=== |exit code|kept_that_differ|imports" $R/gpu-run.log | cut -c1-300 | tail -12
