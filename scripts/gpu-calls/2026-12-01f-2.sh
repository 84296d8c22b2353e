#!/usr/bin/env bash
# 2026-12-01f call 2 (~9.5 min; issue 3): the whole fp16/bf16 gate (45,120 cases, fresh seed) on the tree with
# 2026-12-01f's promotions as defaults (gemv2N options 1/2, batched dots 72/94/75 from its K floor, algorithm 21's
# s16816 serial splits with the bias in the last partition, a split gemv's parts apart), first pass and a rerun.
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the wheel once
GATE_ARGS="--jobs 14 --budget 420 --retry-oom 25 --seed 20261510" timeout -k 5 485 scripts/gpu-run $R gate \
  | grep -v '^ ' | grep -v UserWarning | grep -v '^\[' | tail -12; cp $R/gate.log $R/gate-first.log; pack
GATE_ARGS="--jobs 12 --budget 20 --retry-oom 5 --seed 20261510 --rerun $R/gate.json --name gate-rerun" \
  timeout -k 5 48 scripts/gpu-run $R gate | grep -v '^ ' | grep -v UserWarning | grep -v '^\[' | tail -6; pack
