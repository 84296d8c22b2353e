#!/usr/bin/env bash
# Next session, call 1 (~9 min): host overhead with route-keyed launches, then the whole GEMM
# gate on the current profile (k_major rule, unaligned fallback) with them. Keeps gate.json in
# /tmp/keep for call 2's rerun of errored cases (a warm machine keeps /tmp).
set -u
R=$OUT/r; mkdir -p $R /tmp/keep
pack() { tar czf $OUT/results.tgz -C $OUT r; }
export BITORDER_FAST_LAUNCH=2
timeout 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the wheel once
timeout 40 scripts/gpu-run $R overhead; pack
GATE_ARGS="--jobs 12 --budget 400 --retry-oom 45" timeout 480 scripts/gpu-run $R gate | tail -30; pack
cp $R/gate.json /tmp/keep/ 2>/dev/null
