#!/usr/bin/env bash
# 2026-11-30j call 7 (~5 min, the session's last device minutes; issue 3): the K = 1 addmm candidate
# (F.linear with K = 1 and a bias: exact fp32 product + bias, one rounding) on the gate's K == 1 cases
# of call 5's seed and of a fresh one, with the gate's switches; then its planted fault.
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the wheel once
export BITORDER_UNVERIFIED=1 BITORDER_GEMV_RULE=1
GATE_ARGS="--only k1 --jobs 14 --budget 40 --retry-oom 5 --seed 20261216 --name gate-k1" timeout -k 5 75 scripts/gpu-run $R gate | grep -v '^ ' | grep -v UserWarning | tail -3; pack
mkdir -p $R/fresh; GATE_ARGS="--only k1 --jobs 14 --budget 40 --retry-oom 5 --seed 20261217 --name gate-k1" timeout -k 5 75 scripts/gpu-run $R/fresh gate | grep -v '^ ' | grep -v UserWarning | tail -3; pack
GATE_ARGS="--only k1 --jobs 14 --budget 30 --retry-oom 5 --seed 20261218" timeout -k 5 70 scripts/gpu-run $R mutant-k1 | grep -v '^ ' | grep -v UserWarning | tail -4; pack
