#!/usr/bin/env bash
# 2026-12-05g call 6 (issue 5): check.prune(grid=...) inside a real @triton.autotune whose configurations differ
# in ROWS a program (so in grid) and num_warps: the kept configurations, each launched over its own grid, must
# return the first configuration's bytes (benchmarks/prune_gpu_check.py --grid); then its planted fault (a
# super-block class forgetting its trees, copied tree), which must fail. Any sm_90 card; about 1 min.
#   bash scripts/gpu-calls/2026-12-05g-6.sh      (carry [".whl"], benchmarks/results moved out)
set -u
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name --format=csv,noheader > $R/device.txt 2>&1
timeout -k 5 300 scripts/gpu-run $R prune-grid-check mutant-prune-grid-check > $R/gpu-run.log 2>&1
echo "gpu-run exit $?" >> $R/gpu-run.log
grep -E "^=== |exit code|kept|imports" $R/gpu-run.log | cut -c1-900 | tail -12
