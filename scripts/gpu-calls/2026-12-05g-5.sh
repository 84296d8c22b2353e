#!/usr/bin/env bash
# 2026-12-05g call 5 (issue 5), the machine of call 4 still warm: the super-block gate again over a larger
# sample (24 configurations a kernel, seed 11: other configurations and other draws than call 4), adversarial
# draws, 10 workers (H100) or 15 (H200), budget 500 s (kernels not reached are listed).
#   bash scripts/gpu-calls/2026-12-05g-5.sh      (carry [".whl"], benchmarks/results moved out)
set -u
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name --format=csv,noheader > $R/device.txt 2>&1
J=10; grep -q H200 $R/device.txt && J=15
CHECKER_ARGS="--sblock --jobs $J --draws 5 --adversarial --sample 24 --seed 11 --budget 500" \
  timeout -k 5 560 scripts/gpu-run $R/sampled24 checker > $R/sampled24.log 2>&1
echo "sampled24 exit $?" >> $R/sampled24.log
rm -f $R/sampled24/checker.png
tail -c 600 $R/sampled24.log
