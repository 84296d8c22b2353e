#!/usr/bin/env bash
# Next session, call 2 (~9.5 min): call 1's errored and not-reached cases; the bf16 overflow probe
# (twin); the shared-exp planted fault; the qkv tile sweep with TMA tiles; speed with
# BITORDER_TMA=1; the pinned suite with the layout pass (invariance and time).
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
[ -f /tmp/keep/gate.json ] && GATE_ARGS="--rerun /tmp/keep/gate.json --jobs 8 --budget 50 --name gate-rerun" \
  timeout 70 scripts/gpu-run $R gate | tail -6; pack
timeout 40 scripts/gpu-run $R overflow | tail -24; pack
timeout 70 scripts/gpu-run $R mutant-math | grep -E "exit|passed|failed"; pack
mkdir -p $R/sweep; BENCH_ARGS="--sweep 14 --sweep-groups qkv --sweep-only --budget 95" timeout 115 scripts/gpu-run $R/sweep bench | tail -22; pack
mkdir -p $R/tma; BITORDER_TMA=1 BENCH_ARGS="--budget 70" timeout 100 scripts/gpu-run $R/tma bench | tail -14; pack
BITORDER_PINNED_LAYOUTS=1 PINNED_ARGS="--quick --jobs 12 --rep 5" timeout 190 scripts/gpu-run $R pinned | tail -14; pack
