#!/usr/bin/env bash
# 2026-12-05d call 4 (issue 5): the landing tree (element folds on by default) over the whole corpus, sampled:
# 24 configurations a kernel (call 3 drew 6), each grid apart, adversarial draws, the walk's default limits. A check that the
# default checker as it lands merges nothing the GPU tells apart anywhere, not the full gate (2026-12-04e's).
#   bash scripts/gpu-calls/2026-12-05d-4.sh      (carry [".whl"])
set -u
O=$OUT; S=/tmp/o4; R=$S/r; mkdir -p $R
CHECKER_ARGS="--jobs 15 --draws 5 --adversarial --grid --sample 24 --budget 400" \
  timeout -k 5 440 scripts/gpu-run $R/sampled checker | tail -2
tar czf $O/call4.tgz -C $S r
