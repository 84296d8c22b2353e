#!/usr/bin/env bash
# 2026-12-05i call 1: 2026-12-05h call 3 (never run there), on tree 51fb723.
# 2026-12-05h call 3 (issue 5), on the landing tree: calls 1 and 2 again, since bitorder check DIR changed after them
# (check.cache_classes underneath, kernels compiled once read and not walked, XBLOCK read off every value named
# xoffset, a module found under a copied cache): inductor-cache, inductor-cache-wide (each class's benched variants must return identical bytes, each
# launched over its own grid; each also checks a copy of the cache with the original moved away) and mutant-inductor-cache-sblock (a super-block class hashed without its trees, copied
# tree: must fail). Any sm_90 card; about 3 min.
#   bash scripts/gpu-calls/2026-12-05h-3.sh      (carry [".whl"], benchmarks/results moved out)
set -u
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name --format=csv,noheader > $R/device.txt 2>&1
timeout -k 5 400 scripts/gpu-run $R inductor-cache inductor-cache-wide mutant-inductor-cache-sblock > $R/gpu-run.log 2>&1
echo "gpu-run exit $?" >> $R/gpu-run.log
grep -E "^=== |wrong_merges|imports|exit code" $R/gpu-run.log | cut -c1-500
