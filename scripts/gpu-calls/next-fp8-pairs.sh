#!/usr/bin/env bash
# Prepared 2026-12-02d for a next session (issue 6, ~3 min): the promoting fp8 chain with BITORDER_FP8_PAIRS=1 in
# its second form (kernels_fp8.chain8_tile: two promotion intervals a trip, the odd one's fresh chain left in flight
# (Triton's properly-async wgmma, rule 3b) while the trip adds the previous odd partial and the even one:
# ((acc + x_prev) + x_even), the same adds in the same order; interpreter-checked against the twin with a designed
# reassociation fault; compiled for sm_90 at 128x128x128, 8 warps, TMA and pointers: no serialization, no spill,
# the odd dot with no wait in the loop (tests/gemm/test_kernel_resources.py)) against the default, on the realistic
# set (both accumulation modes, the same shapes in the same order), bytes compared with torch's per call. The first
# form (both chains issued, then both added; 2026-12-02c) was 3% slower because Triton waited for both. The speed
# floor (0.8x torch._scaled_mm above 5 GFLOP) is the question; identical bytes are required either way.
set -u
R=$OUT/r; mkdir -p $R/pairs $R/default
pack() { tar czf $OUT/results.tgz -C $OUT r; }
g() { grep -v '^ ' | grep -v UserWarning | grep -v '^\[' | tail -${1:-8}; }
timeout -k 5 30 scripts/gpu-run $R report > /dev/null 2>&1          # installs the wheel once
export BITORDER_UNVERIFIED=1
BITORDER_FP8_PAIRS=1 FP8_BENCH_ARGS="--budget 45" timeout -k 5 60 scripts/gpu-run $R/pairs fp8bench | g; pack
FP8_BENCH_ARGS="--budget 45" timeout -k 5 60 scripts/gpu-run $R/default fp8bench | g; pack
