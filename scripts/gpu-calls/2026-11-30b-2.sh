#!/usr/bin/env bash
# Call 2 (~9.5 min): the GEMM planted fault alone; call 1's errored cases again (route-keyed
# launches); speed with the wave tiles; the fp8 gate, its planted fault and its speed.
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
timeout 120 scripts/gpu-run $R mutant | tail -5; pack
[ -f /tmp/keep/gate.json ] && BITORDER_FAST_LAUNCH=2 GATE_ARGS="--rerun /tmp/keep/gate.json --jobs 8 --budget 55 --name gate-rerun" \
  timeout 80 scripts/gpu-run $R gate | tail -8; pack
BITORDER_TILES=waves BENCH_ARGS="--budget 80" timeout 105 scripts/gpu-run $R bench | tail -16; pack
FP8_GATE_ARGS="--jobs 12 --budget 110 --retry-oom 20" timeout 150 scripts/gpu-run $R fp8gate | tail -20; pack
timeout 70 scripts/gpu-run $R mutant-fp8 | tail -4; pack
FP8_BENCH_ARGS="--budget 35" timeout 50 scripts/gpu-run $R fp8bench | tail -6; pack
