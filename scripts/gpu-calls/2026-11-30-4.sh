#!/usr/bin/env bash
# Call 4 of 2026-11-30: the whole GEMM gate again (kept kernels, automatic tiles, bf16 algo-24
# splits with K % 64 == 0 falling back), beside it the planted fault and a survey of the 9
# mismatches of calls 2-3 with controls; then speed on the realistic set (CUDA graphs + do_bench).
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
export BITORDER_FAST_LAUNCH=1
timeout 30 scripts/gpu-run $R report > /dev/null 2>&1   # installs the wheel once, before the parallel jobs
( GATE_ARGS="--jobs 14 --budget 345 --retry-oom 30" timeout 420 scripts/gpu-run $R gate > /dev/null 2>&1 ) &
( sleep 20; timeout 120 scripts/gpu-run $R mutant > /dev/null 2>&1
  SURVEY_ARGS="--cases benchmarks/results/2026-11-30-gate/survey-cases.json --budget 150 --name survey-mismatch" \
    timeout 170 scripts/gpu-run $R survey > /dev/null 2>&1 ) &
wait; pack
tail -4 $R/gate.log $R/mutant.log; grep -h "wrote" $R/survey.log
BENCH_ARGS="--budget 90" timeout 120 scripts/gpu-run $R bench | tail -16; pack
