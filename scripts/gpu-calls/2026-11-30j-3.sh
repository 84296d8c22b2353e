#!/usr/bin/env bash
# 2026-11-30j call 3 (~4 min; issue 3): the gemv rule after call 2 (option 10 fp16 bounded at 8,106
# outputs, options 96/106/73 bf16) on 2,000 fresh shapes with, for N == 1, F.linear with a bias
# (torch's addmm, beta = 1) against the order with the bias before the rounding; then the GEMM gate's
# M == 1 or N == 1 cases with the rule on, the addmm route included.
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the wheel once
mkdir -p $R/rule; GEMV_CHECK_ARGS="--rule 2000 --budget 100 --seed 20261212" timeout -k 10 135 scripts/gpu-run $R/rule gemv-check | tail -50; pack
mkdir -p $R/gate; BITORDER_UNVERIFIED=1 BITORDER_GEMV_RULE=1 GATE_ARGS="--only gemv --jobs 14 --budget 110 --retry-oom 20 --name gate-gemv --seed 20261213" \
  timeout -k 10 150 scripts/gpu-run $R/gate gate | grep -v '^ ' | tail -12; pack
