#!/usr/bin/env bash
# 2026-12-01b call 4 (issue 3): the rest of call 3's whole gate (cases its runs did not reach: the large ones).
# Needs call 3's JSON: carried as benchmarks/results/2026-12-01b-gate/gate-rerun.json.
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1
GATE_ARGS="--jobs ${JOBS:-6} --budget ${BUDGET:-300} --retry-oom 20 --seed 20261236 --rerun benchmarks/results/2026-12-01b-gate/gate-rerun.json --name gate-rerun2" \
  timeout -k 5 $(( ${BUDGET:-300} + 60 )) scripts/gpu-run $R gate | grep -v '^ ' | grep -v UserWarning | grep -v '^\[' | tail -10; pack
