#!/usr/bin/env bash
# 2026-12-01 call 5 (~4 min; issue 3): the dot kernels (algorithm 14) against cuBLAS: dot_check (K ladder +
# random K, mm and F.linear with a bias, three draws, designed x / y rows); the gate's M = N = 1 cases
# with the dot candidate on (fresh seed); the planted fault (block fold "up") on the same cases.
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the wheel once
timeout -k 5 150 scripts/gpu-run $R dot-check | grep -v UserWarning | tail -12; pack
export BITORDER_UNVERIFIED=1
GATE_ARGS="--only dot --jobs 4 --budget 90 --retry-oom 10 --seed 20261219 --name gate-dot" \
  timeout -k 5 130 scripts/gpu-run $R gate | grep -v '^ ' | grep -v UserWarning | tail -5; pack
GATE_ARGS="--only dot --jobs 4 --budget 60 --retry-oom 10 --seed 20261219" \
  timeout -k 5 100 scripts/gpu-run $R mutant-dot | grep -v '^ ' | grep -v UserWarning | tail -5; echo "mutant-dot rc ${PIPESTATUS[0]}"; pack
