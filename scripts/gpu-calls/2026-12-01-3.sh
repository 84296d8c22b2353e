#!/usr/bin/env bash
# 2026-12-01 call 3 (~4 min; issue 3): the cases call 2's gate and rerun did not reach (large ones),
# same switches, checked again (fresh draws).
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the wheel once
export BITORDER_UNVERIFIED=1 BITORDER_GEMV_RULE=1
GATE_ARGS="--rerun benchmarks/results/2026-12-01-gate/gate-rerun.json --jobs 8 --budget 170 --retry-oom 20 --name gate-rerun2 --seed 20261218" \
  timeout -k 5 220 scripts/gpu-run $R gate | grep -v '^ ' | grep -v UserWarning | tail -6; pack
