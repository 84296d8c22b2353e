#!/usr/bin/env bash
# 2026-12-02h call 5 (issue 6, H200): the fp8 gate's first third (--slice 0:21104 of 63,312 cases, seed 20261820) on
# the current tree; run as `SEED=20261820 bash scripts/gpu-calls/2026-12-02h-5.sh` (prepared 2026-12-02 as
# next-fp8-gate-1.sh; now next-fp8-gate.sh takes THIRD=1|2|3).
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the wheel once
FP8_GATE_ARGS="--jobs 14 --budget 420 --retry-oom 20 --seed ${SEED:?} --slice 0:21104 --name gate_fp8-1" \
  timeout -k 10 470 scripts/gpu-run $R fp8gate | grep -v '^ ' | grep -v UserWarning | tail -12; pack
