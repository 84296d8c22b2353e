#!/usr/bin/env bash
# 2026-12-03h call 3 (issue 6, ~9 min, H200): fp8.run now takes the Gluon kernel for promoting chains (FP8_WS).
#   (a) the fp8 realistic set, timed under CUDA graphs, bytes compared on every timed call (bench_fp8.py);
#   (b) the planted fault (promotion interval 64 in the profile, copied tree): the quick gate must fail;
#   (c) the fp8 gate's use_fast_accum=False half (the mode whose kernel changed), cases 0:14000 of it.
#   bash scripts/gpu-calls/2026-12-03h-3.sh      (carry [".whl"])
set -u
O=$OUT; S=/tmp/h3; R=$S/r; mkdir -p $R
g() { grep -v '^ ' | grep -v UserWarning | grep -v '^\[' | tail -${1:-8}; }
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1
BITORDER_UNVERIFIED=1 FP8_BENCH_ARGS="--budget 80" timeout -k 5 105 scripts/gpu-run $R/bench fp8bench | g 6
tar czf $O/call3.tgz -C $S r
timeout -k 5 80 scripts/gpu-run $R/mutant mutant-fp8 | g 4
tar czf $O/call3.tgz -C $S r
FP8_GATE_ARGS="--jobs 14 --budget 300 --retry-oom 20 --seed 20261203 --accum slow --slice 0:14000 --name gate_fp8-slow-1" \
  timeout -k 10 330 scripts/gpu-run $R/gate fp8gate | g 12
tar czf $O/call3.tgz -C $S r
