#!/usr/bin/env bash
# 2026-12-05g call 4 (issue 5): super-block classes (check.signature's sblock) on the GPU. The whole corpus sampled
# (8 configurations a kernel), configurations whose launch grids differ in x compared across grids (checker_gate
# --sblock: each classed as r programs of a super-block, the truth each launched over its own grid on the same
# draws, adversarial too): a class whose members return other bytes is a wrong merge. Then the planted fault
# (a super-block's class forgetting its trees, copied tree), which must fail. H200: 15 workers, H100: 10.
#   bash scripts/gpu-calls/2026-12-05g-4.sh      (carry [".whl"], benchmarks/results moved out)
set -u
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name --format=csv,noheader > $R/device.txt 2>&1
J=10; grep -q H200 $R/device.txt && J=15
CHECKER_ARGS="--sblock --jobs $J --draws 5 --adversarial --sample 8 --budget 380" \
  timeout -k 5 430 scripts/gpu-run $R/sampled checker > $R/sampled.log 2>&1
echo "sampled exit $?" >> $R/sampled.log
timeout -k 5 120 scripts/gpu-run $R mutant-sblock-gate > $R/mutant.log 2>&1
echo "mutant exit $?" >> $R/mutant.log
tail -c 1500 $R/sampled.log; grep -E "imports|exit code|wrong merges|\"wrong_merges\"" $R/mutant.log | cut -c1-400 | tail -8
