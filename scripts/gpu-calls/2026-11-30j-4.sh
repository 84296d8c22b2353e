#!/usr/bin/env bash
# 2026-11-30j call 4 (~5.5 min; issue 3): the SIMT gemv kernel now takes batches (bmm's gemv); the rule
# check on 2,000 fresh shapes with the addmm bias (N == 1), cuBLASLt's bias path (M == 1: which
# placement, evidence only) and every third call as a batch of 3; then the gate's M == 1 or N == 1
# cases with the rule on (batched calls now planned too).
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the wheel once
mkdir -p $R/rule; GEMV_CHECK_ARGS="--rule 2000 --budget 130 --seed 20261214" timeout -k 10 170 scripts/gpu-run $R/rule gemv-check | tail -50; pack
mkdir -p $R/gate; BITORDER_UNVERIFIED=1 BITORDER_GEMV_RULE=1 GATE_ARGS="--only gemv --jobs 14 --budget 110 --retry-oom 20 --name gate-gemv --seed 20261215" \
  timeout -k 10 150 scripts/gpu-run $R/gate gate | grep -v '^ ' | grep -v UserWarning | tail -8; pack
