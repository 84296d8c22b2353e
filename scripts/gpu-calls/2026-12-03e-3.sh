#!/usr/bin/env bash
# 2026-12-03e call 3 (issue 5, ~6 min, H200): call 1's gate again on the tree that refuses stores of float selects
# ptxas may lower to a min or max (check/payloads.py: call 2 showed FMNMX.NAN canonicalising a NaN the select passed):
# the 21 TorchInductor kernels, onehot_sum, grouped_sum and the three corpus kernels whose walk the new rules touch
# (pinned_cross_entropy: one-hot terms; pinned_log_softmax, logsumexp: selects before bit tricks), --grid, walk limits
# raised, 5 wide + 6 adversarial draws. Then the planted fault mutant-payloads (the store check dropped, copied tree):
# inductor_cross_entropy_t8_red0 must show the wrong merge again.
#   bash scripts/gpu-calls/2026-12-03e-3.sh      (carry [".whl"])
set -u
O=$OUT; S=/tmp/o3; R=$S/r; mkdir -p $R
pack() { tar czf $O/call3.tgz -C $S r; }
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the wheel once
K=inductor_cross_entropy_t512_red0_bwd,inductor_cross_entropy_t512_red0,inductor_cross_entropy_t8_red0_bwd
K=$K,inductor_cross_entropy_t8_red0,inductor_cross_entropy_t8_red2,pinned_cross_entropy,pinned_log_softmax,logsumexp
K=$K,onehot_sum,grouped_sum,inductor_
CHECKER_ARGS="--jobs 15 --draws 5 --adversarial --grid --steps 200000 --nodes 20000000 --budget 300 --kernels $K" \
  timeout -k 5 370 scripts/gpu-run $R/gate checker | tail -3
pack
timeout -k 5 150 scripts/gpu-run $R mutant-payloads | tail -5
pack
