#!/usr/bin/env bash
# 2026-12-05i call 1 (issue 5), tree 869c3cf (51fb723 plus the one-hot fold inside a skip):
# (a) 2026-12-05h call 3, never run there: inductor-cache, inductor-cache-wide (each class's benched variants must
#     return identical bytes, each launched over its own grid; each also checks a copy of the cache with the original
#     moved away) and mutant-inductor-cache-sblock (a super-block class hashed without its trees, copied tree: must fail);
# (b) the two cross-entropy backwards whose answers the skip fold changes, every configuration, --grid --adversarial,
#     5 draws (as 2026-12-05d call 2).
# Any sm_90 card; about 5 min.
#   bash scripts/gpu-calls/2026-12-05i-1.sh      (carry [".whl"], benchmarks/results moved out)
set -u
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name --format=csv,noheader > $R/device.txt 2>&1
J=10; grep -q H200 $R/device.txt && J=15
K=inductor_cross_entropy_t8_red0_bwd,inductor_cross_entropy_t512_red0_bwd
CHECKER_ARGS="--jobs $J --draws 5 --adversarial --grid --budget 150 --kernels $K" \
  timeout -k 5 170 scripts/gpu-run $R/bwd checker > $R/bwd.log 2>&1
echo "bwd exit $?" >> $R/bwd.log; tail -c 600 $R/bwd.log; rm -f $R/bwd/checker.png
timeout -k 5 360 scripts/gpu-run $R inductor-cache inductor-cache-wide mutant-inductor-cache-sblock > $R/gpu-run.log 2>&1
echo "gpu-run exit $?" >> $R/gpu-run.log
grep -E "^=== |wrong_merges|imports|exit code" $R/gpu-run.log | cut -c1-500
