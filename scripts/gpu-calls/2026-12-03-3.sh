#!/usr/bin/env bash
# 2026-12-03 call 3 (H200, ~7 min): the same gate's half 2 (same seed 20261930, same tree as call 2), then issue 3's
# speed on the realistic set (bench_gemm.py, CUDA graphs, budget 100 s) on that tree. Only a tarball under $OUT.
set -u
O=$OUT; mkdir -p /tmp/o3
OUT=/tmp/o3 HALF=2 SEED=20261930 bash scripts/gpu-calls/next-issue3-gate.sh
BENCH_ARGS="--budget 100" timeout -k 5 140 scripts/gpu-run /tmp/o3/r bench | grep -v UserWarning | tail -16
tar czf $O/gate.tgz -C /tmp/o3 r
