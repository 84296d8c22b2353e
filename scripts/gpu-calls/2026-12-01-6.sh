#!/usr/bin/env bash
# 2026-12-01 call 6 (~5 min; issue 3), no switches set (the defaults: gemv rule without batched dots, k1,
# dot path): call 5's two mismatched gate cases again (batched dots, now cuBLAS); dot_check with 1,500
# random K per dtype (fresh seed); the gate's gemv ground (M == 1 or N == 1, dots included) on a fresh
# seed; the dot planted fault again on call 5's seed.
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the wheel once
GATE_ARGS="--rerun benchmarks/results/2026-12-01-dot/call5/gate-dot.json --jobs 2 --budget 30 --seed 20261219 --name gate-dot-rerun" \
  timeout -k 5 60 scripts/gpu-run $R gate | grep -v '^ ' | grep -v UserWarning | tail -4; pack
DOT_ARGS="--random 1500 --seed 20261202" timeout -k 5 120 scripts/gpu-run $R dot-check | grep -v UserWarning | grep -v designed | tail -6; pack
GATE_ARGS="--only gemv --jobs 12 --budget 150 --retry-oom 20 --seed 20261220 --name gate-gemv" \
  timeout -k 5 200 scripts/gpu-run $R gate | grep -v '^ ' | grep -v UserWarning | tail -6; pack
GATE_ARGS="--only dot --jobs 4 --budget 40 --retry-oom 10 --seed 20261219" \
  timeout -k 5 80 scripts/gpu-run $R mutant-dot | grep -v '^ ' | grep -v UserWarning | tail -5; echo "mutant-dot rc ${PIPESTATUS[0]}"; pack
