#!/usr/bin/env bash
# PLANNED, NOT RUN: written 2026-12-05d; its H200 attempts that day (11:58 UTC) and on 2026-12-05e (six failed starts and
# six refusals, 13:42-14:56 UTC) started no machine. Rename to <session>-K.sh when it runs. Issue 5, optional:
# 2026-12-05d gated the element folds on an H100 only; this repeats that gate on an H200: the landing tree (element
# folds on by default), no switch, the 8 kernels the folds change, every configuration, --grid --adversarial; then
# the planted fault mutant-fold-stores (about 100 s warm). Then the mutant check 2026-12-05e ran on an H100
# (2026-12-05e-2.sh), on the H200 (about 1 min). Needs nvidia-h200.
#   bash scripts/gpu-calls/planned-h200-fold-stores.sh      (carry [".whl"])
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
