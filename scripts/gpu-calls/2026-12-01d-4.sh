#!/usr/bin/env bash
# 2026-12-01d call 4 (~7 min; issue 3): the last 367 cases of the whole gate (call 2's tree's src), then the
# planted fault of the 2026-12-01c profile entries (mutant-entries: sm90-xmma as k8 groups, algorithm 21's
# split granule doubled) over the cases those entries serve, and the same cases on the true tree.
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the wheel once
GATE_ARGS="--jobs 6 --budget 270 --retry-oom 10 --seed 20261310 --rerun benchmarks/results/2026-12-01d-gate/gate-rerun2.json --name gate-rerun3" \
  timeout -k 5 310 scripts/gpu-run $R gate | grep -v '^ ' | grep -v UserWarning | grep -v '^\[' | tail -6; cp $R/gate.log $R/gate-rerun3.log; pack
GATE_ARGS="--jobs 8 --budget 45 --seed 20261313 --rerun benchmarks/results/2026-12-01d-gate/entries-cases.json --name entries" \
  timeout -k 5 75 scripts/gpu-run $R gate | grep -v '^ ' | grep -v UserWarning | grep -v '^\[' | tail -4; cp $R/gate.log $R/entries.log; pack
GATE_ARGS="--jobs 8 --budget 45 --seed 20261313 --rerun benchmarks/results/2026-12-01d-gate/entries-cases.json" \
  timeout -k 5 85 scripts/gpu-run $R mutant-entries | grep -v '^ ' | grep -v UserWarning | grep -v '^\[' | tail -6; pack
