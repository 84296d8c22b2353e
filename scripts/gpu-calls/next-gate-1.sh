#!/usr/bin/env bash
# Prepared 2026-12-02 for a next session (issue 3, ~9.5 min): the whole fp16/bf16 gate (45,120 cases, fresh seed) on
# the tree with 2026-12-02's defaults (the unsplit addmm half, options 73 / 114 fp16, option 107 bf16, the batched dots
# of options 10, 92, 93, 100, 106), first pass; the heaviest cases it leaves go to next-gate-2.sh (RERUN=this call's
# r/gate.json, carried in the tree).
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the wheel once
GATE_ARGS="--jobs 14 --budget 420 --retry-oom 25 --seed ${SEED:?a fresh seed}" timeout -k 5 485 scripts/gpu-run $R gate \
  | grep -v '^ ' | grep -v UserWarning | grep -v '^\[' | tail -12; cp $R/gate.log $R/gate-first.log; pack
