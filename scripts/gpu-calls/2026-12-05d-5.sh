#!/usr/bin/env bash
# 2026-12-05d call 5 (issue 5): the landing tree (element folds on by default) over the whole corpus, sampled:
# 16 configurations a kernel, 10 workers (call 4, 24 a kernel over 15 workers, ran the H100 out of memory), each grid apart, adversarial draws, the walk's default limits. A check that the
# default checker as it lands merges nothing the GPU tells apart anywhere, not the full gate (2026-12-04e's).
#   bash scripts/gpu-calls/2026-12-05d-5.sh      (carry [".whl"])
set -u
O=$OUT; S=/tmp/o5; R=$S/r; mkdir -p $R
CHECKER_ARGS="--jobs 10 --draws 5 --adversarial --grid --sample 16 --budget 290" \
  timeout -k 5 330 scripts/gpu-run $R/sampled checker | tail -2
tar czf $O/call5.tgz -C $S r
