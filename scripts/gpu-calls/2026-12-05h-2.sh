#!/usr/bin/env bash
# 2026-12-05h call 2 (issue 5): the planted fault of call 1's check. mutant-inductor-cache-sblock builds a copied
# tree whose super-block classes are hashed without their trees (SBLOCK_FAULT) and runs inductor-cache-wide there:
# Inductor variants of other XBLOCK or num_warps that return other bytes meet, so the job must exit non-zero
# (scripts/mutant-run exits 0 only when the command failed). Any sm_90 card; about 4 min.
#   bash scripts/gpu-calls/2026-12-05h-2.sh      (carry [".whl"], benchmarks/results moved out)
set -u
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name --format=csv,noheader > $R/device.txt 2>&1
timeout -k 5 400 scripts/gpu-run $R mutant-inductor-cache-sblock > $R/mutant.log 2>&1
echo "gpu-run exit $?" >> $R/mutant.log
grep -E "^=== |exit code|wrong_merges|imports|Error|error" $R/mutant.log | cut -c1-900 | tail -10
