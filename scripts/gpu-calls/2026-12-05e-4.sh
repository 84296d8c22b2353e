#!/usr/bin/env bash
# 2026-12-05e call 4 (issue 5), written 2026-12-05d as planned-h200-fold-stores.sh: 2026-12-05d's element-fold gate
# repeated on the landing tree, no switch, the 8 kernels the folds change, every configuration, --grid --adversarial;
# the planted fault mutant-fold-stores; then the mutant check (checker_mutants.py). Called for `nvidia-h200` at
# 15:06 UTC; the tool gave an H100 (a call without needs_h200 may run on either card, and needs_h200 is only for work
# that does not fit 78 GiB), so the H200 repeat this script was written for is not something the tool lends.
#   bash scripts/gpu-calls/2026-12-05e-4.sh      (carry [".whl"])
set -u
O=$OUT; S=/tmp/o1; R=$S/r; mkdir -p $R
nvidia-smi --query-gpu=name --format=csv,noheader > $R/device.txt 2>&1
K=inductor_cross_entropy_t8_red0_bwd,inductor_cross_entropy_t512_red0_bwd,centered_rows,centered_rows_f16,centered_rows_bf16,online_softmax,online_softmax_f16,online_softmax_bf16
CHECKER_ARGS="--jobs 15 --draws 5 --adversarial --grid --budget 150 --kernels $K" \
  timeout -k 5 170 scripts/gpu-run $R/default checker | tail -1
tar czf $O/call1.tgz -C $S r
timeout -k 5 80 scripts/gpu-run $R mutant-fold-stores | tail -3
tar czf $O/call1.tgz -C $S r
PYTHONPATH=src timeout -k 5 260 python3 benchmarks/checker_mutants.py run --cases benchmarks/checker_mutants_cases.json.gz \
  --out $R/mutants --draws 5 > $R/mutants.log 2>&1; tail -1 $R/mutants.log
tar czf $O/call1.tgz -C $S r
