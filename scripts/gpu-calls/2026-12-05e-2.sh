#!/usr/bin/env bash
# 2026-12-05e call 2 (issue 5): the landing tree (element folds on by default) over the whole corpus, sampled:
# 24 configurations a kernel, 15 workers, on an H200 (2026-12-05d call 4 asked the same of an H100 and ran it out
# of memory), each grid apart, adversarial draws, the walk's default limits. A check that the default checker as it
# lands merges nothing the GPU tells apart anywhere, not the full gate (2026-12-04e's).
#   bash scripts/gpu-calls/2026-12-05e-2.sh      (carry [".whl"])
set -u
O=$OUT; S=/tmp/o2; R=$S/r; mkdir -p $R
nvidia-smi --query-gpu=name --format=csv,noheader > $R/device.txt 2>&1
CHECKER_ARGS="--jobs 15 --draws 5 --adversarial --grid --sample 24 --budget 420" \
  timeout -k 5 460 scripts/gpu-run $R/sampled checker | tail -2
tar czf $O/call2.tgz -C $S r
