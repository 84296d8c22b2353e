#!/usr/bin/env bash
# Next session, call 1 (~9.5 min): the whole GEMM gate on the current tree (wave tiles, the
# default launch path), every case reached if memory allows (growable segments). Keeps gate.json
# in /tmp/keep for call 2's rerun of errored and not-reached cases (a warm machine keeps /tmp).
set -u
R=$OUT/r; mkdir -p $R /tmp/keep
pack() { tar czf $OUT/results.tgz -C $OUT r; }
timeout 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the wheel once
GATE_ARGS="--jobs 14 --budget 470 --retry-oom 40" timeout 540 scripts/gpu-run $R gate | tail -12; pack
cp $R/gate.json /tmp/keep/ 2>/dev/null
