#!/usr/bin/env bash
# 2026-12-01d call 2 (~9 min; issue 3): the whole fp16/bf16 gate (45,120 cases, fresh seed) on the tree with
# the strided dots and dots of any width as defaults (and the 2026-12-01c gemv rules, never gated whole),
# then a first rerun of what it did not reach.
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the wheel once
GATE_ARGS="--jobs 14 --budget 410 --retry-oom 25 --seed 20261310" timeout -k 5 475 scripts/gpu-run $R gate \
  | grep -v '^ ' | grep -v UserWarning | grep -v '^\[' | tail -12; cp $R/gate.log $R/gate-first.log; pack
GATE_ARGS="--jobs 12 --budget 25 --retry-oom 5 --seed 20261310 --rerun $R/gate.json --name gate-rerun" \
  timeout -k 5 55 scripts/gpu-run $R gate | grep -v '^ ' | grep -v UserWarning | grep -v '^\[' | tail -6; pack
