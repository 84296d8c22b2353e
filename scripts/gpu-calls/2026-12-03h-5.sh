#!/usr/bin/env bash
# 2026-12-03h call 5 (issue 6, ~5 min, H200): the Gluon kernel with one consumer warpgroup where M <= 64 (run_ws's
# default there; two above), after call 3 timed M = 8-32 promoting shapes at 0.58-0.78x torch:
#   (a) the fp8 realistic set, timed under CUDA graphs, bytes compared on every timed call;
#   (b) the fp8 gate's use_fast_accum=False cases with M <= 64, the first 8,000 (fresh seed).
#   bash scripts/gpu-calls/2026-12-03h-5.sh      (carry [".whl"])
set -u
O=$OUT; S=/tmp/h5; R=$S/r; mkdir -p $R
g() { grep -v '^ ' | grep -v UserWarning | grep -v '^\[' | tail -${1:-8}; }
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1
BITORDER_UNVERIFIED=1 FP8_BENCH_ARGS="--budget 60" timeout -k 5 85 scripts/gpu-run $R/bench fp8bench | g 3
tar czf $O/call5.tgz -C $S r
FP8_GATE_ARGS="--jobs 14 --budget 150 --retry-oom 20 --seed 20261204 --accum slow --max-m 64 --slice 0:8000 --name gate_fp8-slow-small" \
  timeout -k 10 175 scripts/gpu-run $R/gate fp8gate | g 6
tar czf $O/call5.tgz -C $S r
