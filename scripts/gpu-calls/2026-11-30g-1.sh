#!/usr/bin/env bash
# 2026-11-30, seventh session, call 1 (fired as next-1.sh) (~9 min). Issue 3: the realistic bench on the default tiles, which are now
# BITORDER_TILES=auto with the pointer kernel kept at M <= 32 (2026-11-30f: the TMA routes lost
# skinny products); every group must reach 0.8x cuBLAS above 5 GFLOP. Issue 4: the first six
# pinned kernels over their whole space, timed as each is checked (the suite now writes every
# checked kernel when stopped), with the CPU references of the shared-math kernels.
# Every job runs under `timeout -k 10`: the KILL reaches its whole process group if the TERM
# does not end it (2026-11-30f call 4: a checker job outlived its timeout and the call's limit).
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the wheel once
BENCH_ARGS="--budget 120" timeout -k 10 150 scripts/gpu-run $R bench | tail -16
# against 2026-11-30f's waves run on the shapes both timed (a comparison only; the floor is bench.json's groups)
python3 benchmarks/compare_bench.py benchmarks/results/2026-11-30f-bench/default/bench.json $R/bench.json --json $R/compare.json; pack
BITORDER_PINNED_LAYOUTS=1 PINNED_ARGS="--jobs 14 --rep 3 --budget 320 --kernels row_sum,col_sum,mid_sum,dot_rows,softmax,log_softmax" \
  timeout -k 10 350 scripts/gpu-run $R pinned | tail -10; pack
