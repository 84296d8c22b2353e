#!/usr/bin/env bash
# 2026-12-03b call 3 (~6 min, H200): issue 6's fp8 gate third 3 (seed 20261820, as thirds 1-2) unless call 2 ran it
# (marker), in which case segment_k.WIDE's ground (seed 20261970).
set -u
O=$OUT; M=/tmp/bitorder-2026-12-03b
if [ -e $M/fp8-ran ]; then
  OUT=$O/wide STAGE=/tmp/o3/wide SEED=20261970 bash scripts/gpu-calls/next-wide41.sh
else
  OUT=$O/fp8 STAGE=/tmp/o3/fp8 THIRD=3 SEED=20261820 bash scripts/gpu-calls/next-fp8-gate.sh
fi
