#!/usr/bin/env bash
# 2026-12-03e call 1 (issue 5, ~8.5 min, H200): the checker's soundness gate and partition quality on the 21
# TorchInductor kernels and the two new one-hot corpus kernels (onehot_sum, grouped_sum), on the tree with the
# one-hot sum rule (check/onehot.py), grid_x (program_id(0) below the launch grid) and the walk's limits raised
# (--steps 200000 --nodes 20000000) so that the looped cross-entropy reductions walk to their end; the truth on 5
# wide draws plus checker_adversarial.py's narrow, NaN and signed-zero draws (11 draws). Then the planted fault
# mutant-onehot (the exclusivity check dropped, copied tree): grouped_sum must show wrong merges.
#   bash scripts/gpu-calls/2026-12-03e-1.sh      (carry [".whl"])
set -u
O=$OUT; S=/tmp/o1; R=$S/r; mkdir -p $R
pack() { tar czf $O/call1.tgz -C $S r; }
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the wheel once
# the looped reductions first (they take the longest walks), then the rest
K=inductor_cross_entropy_t512_red0_bwd,inductor_cross_entropy_t512_red0,inductor_cross_entropy_t8_red0_bwd
K=$K,inductor_cross_entropy_t8_red0,inductor_cross_entropy_t8_red2,onehot_sum,grouped_sum,inductor_
CHECKER_ARGS="--jobs 15 --draws 5 --adversarial --grid --steps 200000 --nodes 20000000 --budget 330 --kernels $K" \
  timeout -k 5 400 scripts/gpu-run $R/inductor checker | tail -4
pack
timeout -k 5 90 scripts/gpu-run $R mutant-onehot | tail -6
pack
