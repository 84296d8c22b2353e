#!/usr/bin/env bash
# NOT RUN in 2026-12-05h: twelve tries, no device machine could be started (benchmarks/results/2026-12-05h-gpu/README.md).
# 2026-12-05h call 4 (issue 5): the super-block gate (checker_gate --sblock: configurations whose launch grids
# differ in x classed over super-blocks, as bitorder check DIR classes Inductor's variants and prune(grid=...)
# classes) over EVERY configuration of half the corpus (scripts/gpu-calls/2026-12-05h-kernels-a.txt, a half of
# 2026-12-05b's split), adversarial draws, seed 29 (other draws than 2026-12-05g's samples), 10 workers (H100) or 15
# (H200), budget BUDGET seconds (default 420): kernels not reached are listed in checker.json's not_reached.
#   BUDGET=420 bash scripts/gpu-calls/2026-12-05h-4.sh      (carry [".whl"], benchmarks/results moved out)
set -u
R=$OUT/r; mkdir -p $R
B=${BUDGET:-420}
nvidia-smi --query-gpu=name --format=csv,noheader > $R/device.txt 2>&1
J=10; grep -q H200 $R/device.txt && J=15
CHECKER_ARGS="--sblock --jobs $J --draws 5 --adversarial --seed 29 --budget $B --kernels $(cat scripts/gpu-calls/2026-12-05h-kernels-a.txt)" \
  timeout -k 5 $((B + 45)) scripts/gpu-run $R/half_a checker > $R/half_a.log 2>&1
echo "half_a exit $?" >> $R/half_a.log
rm -f $R/half_a/checker.png
tail -c 700 $R/half_a.log
