#!/usr/bin/env bash
# 2026-12-01c call 8 (~2 min; issue 4): gemm_colsum's pinned chain converted to a layout that keeps the
# mma layout's warps (BITORDER_PINNED_CONVERT_KEEP_WARPS=1, an experiment) against the stock conversion,
# at the configurations where free and pinned were fastest (2026-11-30i): times and output digests.
set -u
R=$OUT/r; mkdir -p $R
export PYTHONPATH=$PWD/src PYTHONUNBUFFERED=1 BITORDER_PINNED_LAYOUTS=1
C="2,1,128;4,1,128;2,1,64;8,1,64;1,1,64"
timeout -k 5 100 python3 benchmarks/pinned_time_configs.py gemm_colsum --configs "$C" --out $R/stock.json 2>&1 | grep -v Warn | tail -8
BITORDER_PINNED_CONVERT_KEEP_WARPS=1 timeout -k 5 100 python3 benchmarks/pinned_time_configs.py gemm_colsum --configs "$C" \
  --out $R/keep-warps.json 2>&1 | grep -v Warn | tail -8
tar czf $OUT/results.tgz -C $OUT r
