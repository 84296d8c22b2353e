#!/usr/bin/env bash
# 2026-11-30j call 5 (~9.5 min; issue 3): the whole fp16/bf16 GEMM gate (45,120 cases, fresh seed) with
# the gemv rule on (BITORDER_UNVERIFIED=1 BITORDER_GEMV_RULE=1: gemv calls with a rule run the SIMT
# kernel, addmm with one output feature and batches included), then a rerun of what it left.
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the wheel once
export BITORDER_UNVERIFIED=1 BITORDER_GEMV_RULE=1
GATE_ARGS="--jobs 14 --budget 420 --retry-oom 30 --seed 20261216" timeout -k 10 480 scripts/gpu-run $R gate | grep -v '^ ' | grep -v UserWarning | tail -8; pack
[ -f $R/gate.json ] && GATE_ARGS="--rerun $R/gate.json --jobs 14 --budget 35 --retry-oom 10 --name gate-rerun --seed 20261216" \
  timeout -k 5 60 scripts/gpu-run $R gate | grep -v '^ ' | grep -v UserWarning | tail -6; pack
