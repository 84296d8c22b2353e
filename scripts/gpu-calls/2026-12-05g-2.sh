#!/usr/bin/env bash
# 2026-12-05g call 2 (issue 5): `bitorder check DIR` on the Triton cache a real autotuned run wrote
# (benchmarks/cache_gpu_check.py: a free-order and a pinned row sum, 12 configurations each; each class's variants
# must return identical bytes), then its planted fault (the cache reader giving every variant the first folder's
# PTX, copied tree), which must fail. Any sm_90 card; about 1 min.
#   bash scripts/gpu-calls/2026-12-05g-2.sh      (carry [".whl"], benchmarks/results moved out)
set -u
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name --format=csv,noheader > $R/device.txt 2>&1
timeout -k 5 400 scripts/gpu-run $R cache-check mutant-cache-check > $R/gpu-run.log 2>&1
echo "gpu-run exit $?" >> $R/gpu-run.log
grep -E "^=== |exit code|wrong_merges|imports" $R/gpu-run.log | cut -c1-600 | tail -20
