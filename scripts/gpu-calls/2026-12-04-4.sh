#!/usr/bin/env bash
# 2026-12-04 call 4 (issue 6, ~5 min, H200), after next-fp8-final.sh parts 1-3 (calls 1-3):
#   (a) the GPU tests of tests/gemm/test_fp8_gluon.py with nvmath on the path (call 1 ran them with PYTHONPATH=src
#       alone: bitorder.scaled_mm fell back to cuBLAS there, so its comparison with torch was vacuous), now with
#       the pure-chain (promote=0) test and a check that the plan ran a kernel;
#   (b) benchmarks/fp8_ws_tiles.py: the Gluon kernel's pure chain and other tiles on the sample's slow shapes.
#   bash scripts/gpu-calls/2026-12-04-4.sh      (carry [".whl"])
set -u
O=$OUT; S=/tmp/c4; R=$S/r; mkdir -p $R
g() { grep -v '^ ' | grep -v UserWarning | grep -v '^\[' | tail -${1:-8}; }
pack() { tar czf $O/call4.tgz -C $S r; }
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the nvmath wheel into /tmp/site
PYTHONPATH=$PWD/src:/tmp/site timeout -k 5 100 python3 -m pytest -q -m gpu tests/gemm/test_fp8_gluon.py \
  > $R/pytest-gpu.log 2>&1; tail -3 $R/pytest-gpu.log; pack
PYTHONPATH=$PWD/src:/tmp/site timeout -k 5 175 python3 benchmarks/fp8_ws_tiles.py --out $R/tiles --budget 140 \
  > $R/tiles.log 2>&1; grep -v '^ ' $R/tiles.log | tail -40; pack
