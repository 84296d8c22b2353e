#!/usr/bin/env bash
# 2026-12-02 fp8 call (prepared on the CPU, not yet run; ~225 s; issue 6): the promoting chain's PIPE option
# (kernels_fp8.chain8_tile's warp-specialized K loop, BITORDER_FP8_PIPE; compiled for sm_90 only so far).
# (a) bench_fp8 --sweep 3 --sweep-only: 3 promoting realistic shapes above 5 GFLOP, every SWEEP8 tile PIPE off
#     and every SWEEP8_PIPE tile (128-row TMA, 4 warps a group) PIPE on, CUDA graphs against torch._scaled_mm,
#     each tile's bytes against torch's (sweep/sweep_fp8/sweep.json, rewritten after every shape);
# (b) the realistic set (both accumulation modes, seed 8: the same shapes in the same order) with
#     BITORDER_FP8_PIPE=1 (--pipe on) and =0 (--pipe off): bench_fp8.json in pipe-on/ and pipe-off/, bytes
#     compared with torch's per call. bench_fp8.py sets BITORDER_UNVERIFIED=1 itself (the fp8 plans are candidates).
set -u
R=$OUT/r; mkdir -p $R/sweep $R/pipe-on $R/pipe-off
pack() { tar czf $OUT/results.tgz -C $OUT r; }
g() { grep -v '^ ' | grep -v UserWarning | grep -v '^\[' | tail -${1:-6}; }
timeout -k 5 30 scripts/gpu-run $R report > /dev/null 2>&1          # installs the wheel once
export BITORDER_UNVERIFIED=1
FP8_BENCH_ARGS="--sweep 3 --sweep-only --budget 75" timeout -k 5 100 scripts/gpu-run $R/sweep fp8bench | g 16; pack
FP8_BENCH_ARGS="--budget 30 --pipe on" timeout -k 5 45 scripts/gpu-run $R/pipe-on fp8bench | g 8; pack
FP8_BENCH_ARGS="--budget 30 --pipe off" timeout -k 5 45 scripts/gpu-run $R/pipe-off fp8bench | g 8; pack
