#!/usr/bin/env bash
# 2026-12-02g call 5 (issue 3, ~3 min, the session's last device seconds): (a) call 4's 288 designed batches of dots
# again on the tree with gemv_rule.MAX_DOT_BATCH = 80 (the one mismatch there, fp16 K 92 in a batch of 100, must now
# go to cuBLAS; everything else identical), defaults; (b) the 396 cases of seed 20261880 that neither call 3 nor
# call 4 reached, on this tree, as far as the budget goes.
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
g() { grep -v '^ ' | grep -v UserWarning | grep -v '^\[' | tail -${1:-6}; }
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the wheel once
export PYTHONPATH=src:/tmp/site
GATE_ARGS="--jobs 14 --budget 25 --retry-oom 5 --seed 20261886 --rerun benchmarks/results/2026-12-02g-cases/dots-batch.json --name dots-batch2" \
  timeout -k 5 50 scripts/gpu-run $R gate | g 6; cp $R/gate.log $R/dots-batch2.log; pack
GATE_ARGS="--jobs 14 --budget 80 --retry-oom 5 --seed 20261887 --rerun benchmarks/results/2026-12-02g-gpu/call4/rerun-left2.json --name rerun-left2" \
  timeout -k 5 105 scripts/gpu-run $R gate | g 6; cp $R/gate.log $R/rerun-left2.log; pack
