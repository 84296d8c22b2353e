#!/usr/bin/env bash
# 2026-12-01c call 7 (~5 min; issue 3): the gate's whole gemv ground (every case with M or N of 1 of a fresh
# 45,120-case list: the only cases the 2026-12-01c gemv rules and the dots bias can plan) with them as
# defaults, no switch set; then the planted fault of the new rules (mutant-probed) on the same ground.
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
quiet() { grep -v '^ ' | grep -v UserWarning | grep -v '^\['; }
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the wheel once
GATE_ARGS="--only gemv --jobs 14 --budget 120 --retry-oom 10 --seed 20261270 --name gate-gemv" \
  timeout -k 5 160 scripts/gpu-run $R gate | quiet | tail -8; pack
GATE_ARGS="--only gemv --jobs 14 --budget 60 --seed 20261271" timeout -k 5 100 scripts/gpu-run $R mutant-probed | quiet | tail -5; pack
