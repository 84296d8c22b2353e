#!/usr/bin/env bash
# 2026-11-30j call 1 (~9 min; issue 3 then 4): the SIMT gemv kernel on the 2026-11-30i probe's pinned
# calls (gemv2T's block=512 path the first time on a GPU); the rule table with 2026-11-30i's additions
# on 600 fresh shapes (new seed); the gemv planted fault; the probe on algorithms 14 and 24 and on
# option 75's split calls (no rule yet); then loop_sum timed (its invariance ran in 2026-11-30i).
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the wheel once
mkdir -p $R/check; GEMV_CHECK_ARGS="--fit benchmarks/results/2026-11-30i-gemv/probe/probe_gemv_fit.json" timeout -k 10 70 scripts/gpu-run $R/check gemv-check | tail -24; pack
timeout -k 10 50 scripts/gpu-run $R/check mutant-gemv | tail -3; pack
mkdir -p $R/rule; GEMV_CHECK_ARGS="--rule 600 --budget 75 --seed 20261207" timeout -k 10 110 scripts/gpu-run $R/rule gemv-check | tail -16; pack
mkdir -p $R/probe; GEMV_ARGS="--want a14-fp16,a14-bf16,a24-fp16,a24-bf16,o75s-bf16,o96-fp16,o100-fp16,o106-fp16 --per-key 2 --draws 1500 --budget 70 --seed 20261208" \
  timeout -k 10 120 scripts/gpu-run $R/probe gemv-probe | tail -30; pack
mkdir -p $R/pinned; BITORDER_PINNED_LAYOUTS=1 PINNED_ARGS="--jobs 14 --rep 3 --budget 170 --kernels loop_sum" timeout -k 10 195 scripts/gpu-run $R/pinned pinned | tail -6; pack
