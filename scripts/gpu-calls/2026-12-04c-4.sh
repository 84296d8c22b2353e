#!/usr/bin/env bash
# 2026-12-04c call 4: with fp8.WS_PROMOTING_COST in the tree, every GPU test of test_fp8_gluon.py (the tiles switch's
# shapes now take the fitted table's tiles; the kept Gluon launch's bytes test among them), then the host time of
# small fp8 calls (overhead_gemm.py, kept launch included).
set -u
R=$OUT/r; mkdir -p $R
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the nvmath wheel into /tmp/site
PYTHONPATH=$PWD/src:/tmp/site timeout -k 5 200 python3 -m pytest -q -m gpu -rA tests/gemm/test_fp8_gluon.py \
  > $R/pytest-gpu.log 2>&1; grep -E "^(PASSED|FAILED|ERROR)" $R/pytest-gpu.log | cut -c1-160; tail -2 $R/pytest-gpu.log
timeout -k 5 150 scripts/gpu-run $R/overhead overhead | tail -30
