#!/usr/bin/env bash
# 2026-12-01 call 2 (~9.5 min; issue 3): the whole fp16/bf16 GEMM gate (45,120 cases, fresh seed
# 20261218) with exactly the switches that would become the default: BITORDER_UNVERIFIED=1 (the K = 1
# addmm path "k1"; the fp16/bf16 profile holds no unverified entry) and BITORDER_GEMV_RULE=1 (the gemv
# rule), then a rerun of what it left.
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the wheel once
export BITORDER_UNVERIFIED=1 BITORDER_GEMV_RULE=1
GATE_ARGS="--jobs 14 --budget 420 --retry-oom 30 --seed 20261218" timeout -k 10 480 scripts/gpu-run $R gate | grep -v '^ ' | grep -v UserWarning | tail -8; pack
[ -f $R/gate.json ] && GATE_ARGS="--rerun $R/gate.json --jobs 14 --budget 35 --retry-oom 10 --name gate-rerun --seed 20261218" \
  timeout -k 5 60 scripts/gpu-run $R gate | grep -v '^ ' | grep -v UserWarning | tail -6; pack
