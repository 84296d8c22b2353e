#!/usr/bin/env bash
# Next session, call 2 (~9.5 min): the GEMM planted fault alone; call 1's errored cases again;
# speed with the wave tiles; the fp8 gate, its planted fault and its speed.
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
export BITORDER_FAST_LAUNCH=2
timeout 120 scripts/gpu-run $R mutant | tail -5; pack
[ -f /tmp/keep/gate.json ] && GATE_ARGS="--rerun /tmp/keep/gate.json --jobs 6 --budget 60 --name gate-rerun" \
  timeout 90 scripts/gpu-run $R gate | tail -8; pack
BITORDER_TILES=waves BENCH_ARGS="--budget 100" timeout 130 scripts/gpu-run $R bench | tail -16; pack
FP8_GATE_ARGS="--jobs 12 --budget 120 --retry-oom 20" timeout 170 scripts/gpu-run $R fp8gate | tail -20; pack
timeout 70 scripts/gpu-run $R mutant-fp8 | tail -4; pack
