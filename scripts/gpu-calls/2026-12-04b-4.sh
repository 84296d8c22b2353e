#!/usr/bin/env bash
# 2026-12-04b call 4 (issue 6): BITORDER_FP8_WS_TILES on by default with fp8.ws_tile's persistent promoting tile
# (128 x 128, 6 stages, grids of a wave or more; call 3 measured it). The fp8 gate on the cases that tile takes
# (--ws-persistent-only, fresh seed), its planted fault (mutant-fp8-persistent: tiles stored at their program's
# first tile's rows, must fail), then bench_fp8 on calls 0:360 of the shuffled realistic set (the slice call 1
# timed with the switch off and on), then the persistent case of the tiles switch's GPU test.
# Move benchmarks/results out first (64 MiB).
set -u
R=$OUT/r; mkdir -p $R
g() { grep -v '^ ' | grep -v UserWarning | grep -v '^\[' | tail -${1:-8}; }
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the nvmath wheel into /tmp/site
FP8_GATE_ARGS="--jobs 14 --budget 170 --retry-oom 20 --seed 4120605 --ws-persistent-only --name gate_fp8-persistent" \
  timeout -k 10 215 scripts/gpu-run $R/gate fp8gate | g 4
FP8_GATE_ARGS="--jobs 14" timeout -k 5 80 scripts/gpu-run $R/mutant mutant-fp8-persistent | g 3
FP8_BENCH_ARGS="--budget 170 --slice 0:360 --graphs-only" timeout -k 5 200 scripts/gpu-run $R/bench fp8bench | g 3
PYTHONPATH=$PWD/src:/tmp/site timeout -k 5 60 python3 -m pytest -q -m gpu tests/gemm/test_fp8_gluon.py \
  -k "tiles_switch and 1000" > $R/pytest-gpu.log 2>&1; tail -3 $R/pytest-gpu.log
