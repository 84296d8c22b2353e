#!/usr/bin/env bash
# Call 3 (~9 min): the pinned suite with the layout pass, timed on a quiet GPU; then, side by
# side, the GPU tests (two processes), the checker's soundness gate and the twin gate with fp8;
# then the twin, shared-exp and pinned planted faults. Every job packs its results as it ends.
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
export PYTHONPATH=$PWD/src:/tmp/site PYTHONUNBUFFERED=1 BITORDER_CACHE_DIR=/tmp/bitorder-cache
timeout 40 scripts/gpu-run $R report > /dev/null 2>&1
BITORDER_PINNED_LAYOUTS=1 PINNED_ARGS="--quick --jobs 12 --budget 140 --rep 10" timeout 180 scripts/gpu-run $R pinned | tail -16; pack
( timeout 240 python3 -m pytest -q -p no:cacheprovider tests/gpu/test_gemm_gpu.py --junitxml=$R/pytest-gpu-gemm.xml > $R/tests.log 2>&1 ) &
( timeout 240 python3 -m pytest -q -p no:cacheprovider tests/gpu --ignore tests/gpu/test_gemm_gpu.py --junitxml=$R/pytest-gpu-rest.xml > $R/tests-rest.log 2>&1 ) &
( TWIN_ARGS="--count 2000 --fp8 667 --budget 180" timeout 220 scripts/gpu-run $R twin > /dev/null 2>&1 ) &
CHECKER_ARGS="--jobs 6 --draws 5 --budget 180" timeout 230 scripts/gpu-run $R checker | tail -4
wait; pack
timeout 90 scripts/gpu-run $R mutant-twin mutant-math mutant-pinned | grep -E "exit|mutant"; pack
