#!/usr/bin/env bash
# 2026-12-01e call 3 (~8.5 min; issue 3): the last 476 cases of call 2's whole gate (the heaviest: fewer workers) on
# the tree with split_k -1 answers sent to cuBLAS (call 2's one mismatch), then the planted fault of the twelve
# 2026-12-01d gemv rules (mutant-probed-d: option 88 fp16 read as 4 lanes) over the ground check's cases.
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the wheel once
GATE_ARGS="--jobs 6 --budget ${B1:-380} --retry-oom 10 --seed 20261410 --rerun benchmarks/results/2026-12-01e-gate/gate-rerun.json --name gate-rerun2" \
  timeout -k 5 $(( ${B1:-380} + 40 )) scripts/gpu-run $R gate | grep -v '^ ' | grep -v UserWarning | grep -v '^\[' | tail -6; cp $R/gate.log $R/gate-rerun2.log; pack
GATE_ARGS="--jobs 10 --budget 35 --seed 20261411 --rerun benchmarks/results/2026-12-01e-ground/cand-cases.json" \
  timeout -k 5 70 scripts/gpu-run $R mutant-probed-d | grep -v '^ ' | grep -v UserWarning | grep -v '^\[' | tail -5; pack
