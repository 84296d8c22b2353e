#!/usr/bin/env bash
# 2026-12-01g call 2 (~9.5 min; issue 3): the whole fp16/bf16 gate (45,120 cases, fresh seed) on the tree with
# 2026-12-01g's defaults (the SIMT table as JSON, batched gemmSN by row, the gemv kernels' warps by block, run-time
# splits within one K tile unsplit, the 2026-12-01f probe's rules), first pass and a rerun.
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the wheel once
GATE_ARGS="--jobs 14 --budget 420 --retry-oom 25 --seed 20261620" timeout -k 5 485 scripts/gpu-run $R gate \
  | grep -v '^ ' | grep -v UserWarning | grep -v '^\[' | tail -12; cp $R/gate.log $R/gate-first.log; pack
GATE_ARGS="--jobs 12 --budget 20 --retry-oom 5 --seed 20261620 --rerun $R/gate.json --name gate-rerun" \
  timeout -k 5 48 scripts/gpu-run $R gate | grep -v '^ ' | grep -v UserWarning | grep -v '^\[' | tail -6; pack
