#!/usr/bin/env bash
# 2026-12-05g call 1 (issue 5): the prune check's planted fault on a GPU, with the check itself beside it on the
# same tree. mutant-prune-check builds a copied tree whose prune keeps every class's num_stages=1 configuration;
# configurations of other classes then run and return other bytes, so the job must exit non-zero. Any sm_90 card;
# about 2 min.
#   bash scripts/gpu-calls/2026-12-05g-1.sh      (carry [".whl"], benchmarks/results moved out)
set -u
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name --format=csv,noheader > $R/device.txt 2>&1
timeout -k 5 400 scripts/gpu-run $R prune-check mutant-prune-check > $R/gpu-run.log 2>&1
echo "gpu-run exit $?" >> $R/gpu-run.log
grep -E "^=== |exit|kept|wrong|FAIL|differ" $R/gpu-run.log | tail -20
