#!/usr/bin/env bash
# 2026-12-01c call 2 (~10 min; issue 3): the whole fp16/bf16 gate (45,120 cases, fresh seed) with this
# session's new defaults (algorithm 56 as magma's seq order, 41/42 as nvjet's chain, 21's scheme-2 splits
# and wmma serial splits as CUTLASS's, algorithm 14 with M = 1 as dots, gemmSN TN with a bias, gemmk1
# K = 1), then a first rerun of what it did not reach.
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the wheel once
GATE_ARGS="--jobs 14 --budget 410 --retry-oom 25 --seed 20261250" timeout -k 5 475 scripts/gpu-run $R gate \
  | grep -v '^ ' | grep -v UserWarning | grep -v '^\[' | tail -12; cp $R/gate.log $R/gate-first.log; pack
GATE_ARGS="--jobs 12 --budget 30 --retry-oom 5 --seed 20261250 --rerun $R/gate.json --name gate-rerun" \
  timeout -k 5 65 scripts/gpu-run $R gate | grep -v '^ ' | grep -v UserWarning | grep -v '^\[' | tail -6; pack
