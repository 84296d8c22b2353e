#!/usr/bin/env bash
# 2026-12-04b call 5 (issue 6): the rest of the realistic set under the same tree as call 4 (calls 293:1104 of the
# shuffled list; call 4 timed 0:293), CUDA graphs only, budget-cut; then the tiles switch's GPU test on the persistent
# shape (call 4 had N = 8200, which torch's rule rejects). Move benchmarks/results out first (64 MiB).
set -u
R=$OUT/r; mkdir -p $R
g() { grep -v '^ ' | grep -v UserWarning | grep -v '^\[' | tail -${1:-8}; }
FP8_BENCH_ARGS="--budget 385 --slice 293:1104 --graphs-only" timeout -k 5 420 scripts/gpu-run $R/bench fp8bench | g 3
PYTHONPATH=$PWD/src:/tmp/site timeout -k 5 45 python3 -m pytest -q -m gpu tests/gemm/test_fp8_gluon.py \
  -k "tiles_switch and 1000" > $R/pytest-gpu.log 2>&1; tail -3 $R/pytest-gpu.log
