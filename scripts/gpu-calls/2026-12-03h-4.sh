#!/usr/bin/env bash
# 2026-12-03h call 4 (issue 6, ~7 min, H200): fp8.run now takes the Gluon kernel for promoting chains (FP8_WS).
#   (c) the fp8 gate's use_fast_accum=False half (the mode whose kernel changed), cases 14000: of it (the rest of call 3).
#   bash scripts/gpu-calls/2026-12-03h-3.sh      (carry [".whl"])
set -u
O=$OUT; S=/tmp/h4; R=$S/r; mkdir -p $R
g() { grep -v '^ ' | grep -v UserWarning | grep -v '^\[' | tail -${1:-8}; }
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1
FP8_GATE_ARGS="--jobs 14 --budget 380 --retry-oom 20 --seed 20261203 --accum slow --slice 14000: --name gate_fp8-slow-2" \
  timeout -k 10 410 scripts/gpu-run $R/gate fp8gate | g 12
tar czf $O/call4.tgz -C $S r
