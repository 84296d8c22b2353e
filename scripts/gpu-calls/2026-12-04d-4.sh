#!/usr/bin/env bash
# 2026-12-04d call 4 (issue 5): the magic-division rule (check/magic.py, BITORDER_MAGIC_DIV=1) on the 21 TorchInductor
# kernels, every configuration (5 wide + adversarial draws, --grid, the walk limits raised as 2026-12-03g call 3). The
# rule acts only on mul.hi followed by a shift; of the corpus, only Inductor's gpt2_mlp poi2 kernels compile to mul.hi
# (3 configurations of every kernel compiled on the CPU, 2026-12-04d), so these kernels are what it can change.
# Then the planted fault mutant-checker (tree keys that forget their operands) on inductor_gpt2_mlp_t8_per0 with the
# rule on: the gate must show wrong merges (poi2's truth is one class per grid, so no fault can show one there).
set -u
export BITORDER_MAGIC_DIV=1
R=$OUT/r; mkdir -p $R
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1
CHECKER_ARGS="--jobs 15 --draws 5 --adversarial --grid --steps 200000 --nodes 20000000 --budget 330 --kernels inductor_" \
  timeout -k 5 360 scripts/gpu-run $R/inductor checker | tail -4
MUTANT_KERNELS=inductor_gpt2_mlp_t8_per0 timeout -k 5 120 scripts/gpu-run $R mutant-checker | tail -5
