#!/usr/bin/env bash
# 2026-12-01f call 3 (~9 min; issue 3): the rest of call 2's gate (its heaviest cases, not reached: RERUN names
# call 2's gate-rerun.json, carried in the tree), then the planted faults of 2026-12-01f's promotions on copied
# trees: algorithm 21's bias in the first partition, the refit's rules misread, the parts merged last to first.
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
g() { grep -v '^ ' | grep -v UserWarning | grep -v '^\[' | tail -${1:-6}; }
G=benchmarks/results/2026-12-01f-ground
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the wheel once
GATE_ARGS="--jobs 6 --budget ${B:-310} --retry-oom 25 --seed 20261510 --rerun ${RERUN:?} --name gate-rest" \
  timeout -k 5 $(( ${B:-310} + 35 )) scripts/gpu-run $R gate | g 10; cp $R/gate.log $R/gate-rest.log; pack
GATE_ARGS="--jobs 8 --budget 40 --retry-oom 10 --seed 20261520 --rerun $G/cand21-cases.json" \
  timeout -k 5 70 scripts/gpu-run $R mutant-algo21 | g 5; pack
GATE_ARGS="--jobs 12 --budget 30 --retry-oom 10 --seed 20261521 --rerun $G/cand13-cases.json" \
  timeout -k 5 60 scripts/gpu-run $R mutant-probed-e | g 5; pack
GATE_ARGS="--jobs 12 --budget 30 --retry-oom 10 --seed 20261522 --only gemv" \
  timeout -k 5 60 scripts/gpu-run $R mutant-parts | g 5; pack
