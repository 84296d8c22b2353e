#!/usr/bin/env bash
# 2026-12-04d call 1 (issue 5): the soundness gate of the loop fold (check/loops.py, --fold) on every corpus kernel
# with a loop the fold may read: the runtime-bound loops (pinned_loop_sum, row_sum_loop, loop_assoc, online_softmax
# and their fp16/bf16 twins) and the constexpr-bound one-hot loops (onehot_sum, grouped_sum and twins), every
# configuration, 5 wide + adversarial draws, classed for the launch grid (--grid); then the planted fault
# mutant-fold (the fold keyed without its update) on loop_assoc, which must show wrong merges.
set -u
R=$OUT/r; mkdir -p $R
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the nvmath wheel into /tmp/site
K=$(PYTHONPATH=src python3 -c "
import sys; sys.path.insert(0, 'benchmarks'); from corpus import SPECS
print(','.join(k for k in SPECS if k.startswith(('pinned_loop_sum', 'row_sum_loop', 'loop_assoc', 'online_softmax',
                                                 'onehot_sum', 'grouped_sum'))))")
echo "kernels: $K"
CHECKER_ARGS="--jobs 15 --draws 5 --adversarial --grid --fold --budget 300 --kernels $K" \
  timeout -k 5 330 scripts/gpu-run $R/loops checker | tail -4
timeout -k 5 150 scripts/gpu-run $R mutant-fold | tail -6
