#!/usr/bin/env bash
# Prepared 2026-12-03c for a next session (issue 6, ~3 min, H200): the fp8 realistic set with the plain chains on
# kernels_fp8.chain8_persistent_kernel (BITORDER_FP8_PERSISTENT=1: one program per SM, the tile loop flattened so
# the next tile's TMA loads overlap this one's epilogue; no warp specialization), then the default, each
# --budget 60 on the same seed, bytes compared with torch._scaled_mm on every timed call (BITORDER_UNVERIFIED=1 as
# in 2026-12-03c call 5). Interpreted on the CPU against the twin (tests/gemm/test_fp8_split_path.py), compiled
# without spill or serialized wgmma (tests/gemm/test_kernel_resources.py); the H200's bytes decide, as the warp-
# specialized loop showed twice. If every call is identical and the slow groups pass 0.8x: the fp8 gate with it
# (next-fp8-gate.sh under BITORDER_FP8_PERSISTENT=1) before it becomes the default.
#   STAGE=/tmp/oN OUT=$OUT/persistent bash scripts/gpu-calls/next-fp8-persistent.sh
set -u
R=${STAGE:-$OUT}/r; mkdir -p $R $OUT
pack() { tar czf $OUT/results.tgz -C ${STAGE:-$OUT} r; }
g() { grep -v '^ ' | grep -v UserWarning | grep -v '^\[' | tail -${1:-8}; }
BITORDER_UNVERIFIED=1 BITORDER_FP8_PERSISTENT=1 FP8_BENCH_ARGS="--budget 60" timeout -k 5 85 scripts/gpu-run $R/persistent fp8bench | g 4; pack
BITORDER_UNVERIFIED=1 FP8_BENCH_ARGS="--budget 60" timeout -k 5 85 scripts/gpu-run $R/default fp8bench | g 4; pack
