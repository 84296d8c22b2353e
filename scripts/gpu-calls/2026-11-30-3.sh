#!/usr/bin/env bash
# Call 3 of 2026-11-30: the second half of the GEMM gate; the checker's new rules on fresh
# draws and the planted faults of the checker, the shared exp and the pinned fold; the pinned
# suite's quick space with the corrected loop_sum.
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
export BITORDER_FAST_LAUNCH=1 BITORDER_TILES=wide
GATE_ARGS="--jobs 14 --budget 300 --retry-oom 30 --slice 22560: --name gate-b" timeout 370 scripts/gpu-run $R gate; pack
CHECKER_ARGS="--jobs 14 --draws 3 --budget 55" timeout 80 scripts/gpu-run $R checker; pack
timeout 50 scripts/gpu-run $R mutant-checker mutant-math mutant-pinned; pack
PINNED_ARGS="--quick --jobs 14 --budget 45 --rep 5" timeout 70 scripts/gpu-run $R pinned; pack
