#!/usr/bin/env bash
# 2026-12-04d call 2 (issue 5): the 21 TorchInductor kernels with the loop fold on (--fold): their loops have constant
# trip counts (walked turn by turn, as before), but a branch that skips a loop is now walked where it was refused;
# the walk limits raised as 2026-12-03g call 3 ran them (5 wide + adversarial draws, --grid).
set -u
R=$OUT/r; mkdir -p $R
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1
CHECKER_ARGS="--jobs 15 --draws 5 --adversarial --grid --fold --steps 200000 --nodes 20000000 --budget 330 --kernels inductor_" \
  timeout -k 5 360 scripts/gpu-run $R/inductor checker | tail -4
