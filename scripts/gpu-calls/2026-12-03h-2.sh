#!/usr/bin/env bash
# 2026-12-03h call 2 (issue 6, ~4.5 min, H200): the warp-specialized Gluon fp8 promoting kernel (prototype,
# src/bitorder/gemm/kernels_fp8_gluon.py): bytes against torch._scaled_mm(use_fast_accum=False) and chain8_kernel
# on 16 shapes x 4 draws, and CUDA-graph speed against both; then its fault (PROMOTE=64) must differ.
#   bash scripts/gpu-calls/2026-12-03h-2.sh      (carry [".whl"])
set -u
O=$OUT; S=/tmp/h2; R=$S/r; mkdir -p $R
export PYTHONPATH=$PWD/src
timeout -k 5 200 python3 benchmarks/fp8_gluon_check.py --out $R/gluon --budget 150 > $R/gluon.log 2>&1; echo "check rc $?"
tail -25 $R/gluon.log
timeout -k 5 70 python3 benchmarks/fp8_gluon_check.py --out $R/gluon-fault --fault --budget 40 > $R/gluon-fault.log 2>&1; echo "fault rc $?"
tail -6 $R/gluon-fault.log
tar czf $O/call2.tgz -C $S r
