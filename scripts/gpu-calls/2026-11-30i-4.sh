#!/usr/bin/env bash
# 2026-11-30i call 4 (~6 min, the session's last 430 s): the gemv rule once more after option 56's
# split calls were taken out of it (fresh seed); the gemv probe on fresh shapes whose answer has no
# rule yet (option 56 split, gemv2T = option 11, ...), fitted on the CPU afterwards; the planted
# fault of the pinned gate on gemm_colsum through the accumulator conversion (a quarter of its space).
set -u
R=$OUT/r4; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r4; }
timeout -k 5 30 scripts/gpu-run $R report > /dev/null 2>&1
mkdir -p $R/gemv-rule; GEMV_CHECK_ARGS="--rule 600 --budget 50 --seed 20261206" timeout -k 10 80 scripts/gpu-run $R/gemv-rule gemv-check | tail -14; pack
mkdir -p $R/probe; GEMV_ARGS="--want o56s-fp16,o56s-bf16,o11-fp16,o11-bf16,o75-bf16,o92-fp16,o93-bf16,o58-fp16,o10-bf16,o72-fp16 --per-key 3 --draws 1500 --budget 80" \
  timeout -k 10 130 scripts/gpu-run $R/probe gemv-probe | tail -45; pack
mkdir -p $R/colsum; BITORDER_PINNED_LAYOUTS=1 MUTANT_PINNED_CASE=gemm_colsum MUTANT_PINNED_SHARES=4 timeout -k 10 110 scripts/gpu-run $R/colsum mutant-pinned | tail -4; pack
