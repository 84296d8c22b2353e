#!/usr/bin/env bash
# Call 1 of 2026-11-30: host overhead of both launch paths; the GPU tests, the fp8 probe, the
# TorchInductor demo and the transformer block side by side (correctness only); then speed
# (do_bench and CUDA graphs, kept kernels + wide tiles + the L2 swizzle) with a tile sweep.
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
export BITORDER_FAST_LAUNCH=1 BITORDER_TILES=wide
timeout 60 scripts/gpu-run $R overhead; pack
export PYTHONPATH=$PWD/src:/tmp/site PYTHONUNBUFFERED=1 BITORDER_CACHE_DIR=/tmp/bitorder-cache
( timeout 200 python3 -m pytest -q -p no:cacheprovider tests/gpu/test_gemm_gpu.py --junitxml=$R/pytest-gpu-gemm.xml > $R/tests.log 2>&1; echo "tests exit $?" >> $R/tests.log ) &
( timeout 200 python3 -m pytest -q -p no:cacheprovider tests/gpu --ignore tests/gpu/test_gemm_gpu.py --junitxml=$R/pytest-gpu-rest.xml > $R/tests-rest.log 2>&1; echo "tests exit $?" >> $R/tests-rest.log ) &
( FP8_ARGS="--budget 110" timeout 130 scripts/gpu-run $R fp8 > /dev/null 2>&1
  timeout 65 scripts/gpu-run $R inductor > /dev/null 2>&1 ) &
( timeout 190 scripts/gpu-run $R block mutant-block > /dev/null 2>&1 ) &
wait; pack
BENCH_ARGS="--budget 150 --sweep 6" timeout 175 scripts/gpu-run $R bench; pack
tail -3 $R/tests.log $R/tests-rest.log
