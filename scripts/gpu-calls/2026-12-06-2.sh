#!/usr/bin/env bash
# 2026-12-06 call 2 (issue 5), tree of a4177a0's walk code (walk 2 of the element folds in every thread at once):
# (a) the kernels whose walks take the element folds (the two cross-entropy backwards and centered_rows in three
#     dtypes: the only ones in the stored corpus, counted on the CPU), every configuration, --grid --adversarial,
#     5 draws; (b) mutant-fold-stores (a storing loop's template keyed without its value, copied tree) on
#     centered_rows, through the new walk 2: must find wrong merges. One archive. Any sm_90 card; about 5 min.
#   bash scripts/gpu-calls/2026-12-06-2.sh      (carry [".whl"], benchmarks/results moved out)
set -u
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name --format=csv,noheader > $R/device.txt 2>&1
J=10; grep -q H200 $R/device.txt && J=15
K=inductor_cross_entropy_t8_red0_bwd,inductor_cross_entropy_t512_red0_bwd,centered_rows,centered_rows_bf16,centered_rows_f16
CHECKER_ARGS="--jobs $J --draws 5 --adversarial --grid --budget 150 --kernels $K" \
  timeout -k 5 175 scripts/gpu-run $R/folds checker > $R/folds.log 2>&1
echo "folds exit $?" >> $R/folds.log; rm -f $R/folds/checker.png
timeout -k 5 110 scripts/gpu-run $R mutant-fold-stores > $R/mutant.log 2>&1
echo "mutant exit $?" >> $R/mutant.log
tar czf $OUT/folds.tgz -C $OUT r && rm -rf $R
tar xzf $OUT/folds.tgz -O r/folds.log | grep -o '"configs": [0-9]*\|"certified_pairs": [0-9]*\|"wrong_merges": [0-9]*\|"true_classes": [0-9]*\|"classes": [0-9]*\|folds exit.*'
tar xzf $OUT/folds.tgz -O r/mutant.log | grep -E "wrong_merges|mutat|exit" | cut -c1-300 | tail -8
