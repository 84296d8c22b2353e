#!/usr/bin/env bash
# 2026-12-02 second session, call 2 (issue 3, ~9.5 min): the whole fp16/bf16 gate (45,120 cases, fresh seed
# 20261802) on the tree with this session's defaults (algorithm 35's strided split, algorithm 21's widened serial
# entry) and every earlier one; first pass. The cases it leaves go to call 3 (--rerun of this call's gate.json).
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the wheel once
GATE_ARGS="--jobs 14 --budget 505 --retry-oom 25 --seed 20261802" timeout -k 5 545 scripts/gpu-run $R gate \
  | grep -v '^ ' | grep -v UserWarning | grep -v '^\[' | tail -12; cp $R/gate.log $R/gate-first.log; pack
