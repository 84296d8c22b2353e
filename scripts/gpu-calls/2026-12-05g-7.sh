#!/usr/bin/env bash
# 2026-12-05g call 7 (issue 5): the super-block gate once more, on the code as it lands (bitorder check --grid and
# the report changed, not the walk): every configuration of the 21 captured Inductor kernels (their autotune
# spaces vary XBLOCK, so the grid), then the corpus sampled 32 a kernel with seed 23 (other configurations and
# draws than calls 4 and 5), adversarial draws, 10 workers (H100) or 15 (H200).
#   bash scripts/gpu-calls/2026-12-05g-7.sh      (carry [".whl"], benchmarks/results moved out)
set -u
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name --format=csv,noheader > $R/device.txt 2>&1
J=10; grep -q H200 $R/device.txt && J=15
CHECKER_ARGS="--sblock --jobs $J --draws 5 --adversarial --kernels inductor_ --seed 19 --budget 120" \
  timeout -k 5 150 scripts/gpu-run $R/inductor checker > $R/inductor.log 2>&1
echo "inductor exit $?" >> $R/inductor.log
CHECKER_ARGS="--sblock --jobs $J --draws 5 --adversarial --sample 32 --seed 23 --budget 360" \
  timeout -k 5 400 scripts/gpu-run $R/sampled32 checker > $R/sampled32.log 2>&1
echo "sampled32 exit $?" >> $R/sampled32.log
rm -f $R/*/checker.png
tail -c 300 $R/inductor.log; tail -c 300 $R/sampled32.log
