#!/usr/bin/env bash
# Next session, call 3 (~9.5 min): the checker's soundness gate; the twin gate with fp8; the GPU
# tests in two processes; the twin, shared-exp and pinned planted faults; fp8 speed; Inductor.
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
export PYTHONPATH=$PWD/src:/tmp/site PYTHONUNBUFFERED=1 BITORDER_CACHE_DIR=/tmp/bitorder-cache
timeout 40 scripts/gpu-run $R report > /dev/null 2>&1
( timeout 300 python3 -m pytest -q -p no:cacheprovider tests/gpu/test_gemm_gpu.py --junitxml=$R/pytest-gpu-gemm.xml > $R/tests.log 2>&1 ) &
( timeout 300 python3 -m pytest -q -p no:cacheprovider tests/gpu --ignore tests/gpu/test_gemm_gpu.py --junitxml=$R/pytest-gpu-rest.xml > $R/tests-rest.log 2>&1 ) &
CHECKER_ARGS="--jobs 8 --draws 5 --budget 200" timeout 260 scripts/gpu-run $R checker | tail -4
wait; pack
TWIN_ARGS="--count 2000 --fp8 667 --budget 150" timeout 170 scripts/gpu-run $R twin | tail -3; pack
timeout 90 scripts/gpu-run $R mutant-twin mutant-math mutant-pinned | grep -E "exit|mutant"; pack
FP8_BENCH_ARGS="--budget 40" timeout 60 scripts/gpu-run $R fp8bench | tail -6; pack
