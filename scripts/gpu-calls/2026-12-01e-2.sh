#!/usr/bin/env bash
# 2026-12-01e call 2 (~9.5 min; issue 3): the whole fp16/bf16 gate (45,120 cases, fresh seed) on the tree with the
# twelve 2026-12-01d gemv rules and gemmSN's 2-lane NN kernel past K = 256 as defaults (2026-12-01e ground check),
# the gemv kernel's 8-step loop and gemmSN's one-launch rows (never gated whole), then a first rerun.
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the wheel once
GATE_ARGS="--jobs 14 --budget 420 --retry-oom 25 --seed 20261410" timeout -k 5 485 scripts/gpu-run $R gate \
  | grep -v '^ ' | grep -v UserWarning | grep -v '^\[' | tail -12; cp $R/gate.log $R/gate-first.log; pack
GATE_ARGS="--jobs 12 --budget 20 --retry-oom 5 --seed 20261410 --rerun $R/gate.json --name gate-rerun" \
  timeout -k 5 48 scripts/gpu-run $R gate | grep -v '^ ' | grep -v UserWarning | grep -v '^\[' | tail -6; pack
