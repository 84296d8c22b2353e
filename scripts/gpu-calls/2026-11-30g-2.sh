#!/usr/bin/env bash
# 2026-11-30, seventh session, call 2 (fired as next-2.sh) (~9.5 min; issue 3): the whole GEMM gate (45,120 cases) on the default tiles
# (auto, M <= 32 on pointers), then the rerun of what the budget left, in the same call.
set -u
R=$OUT/r; mkdir -p $R /tmp/keep
pack() { tar czf $OUT/results.tgz -C $OUT r; }
timeout -k 5 30 scripts/gpu-run $R report > /dev/null 2>&1
GATE_ARGS="--jobs 14 --budget 430 --retry-oom 35" timeout -k 10 475 scripts/gpu-run $R gate | tail -8; pack
[ -f $R/gate.json ] && GATE_ARGS="--rerun $R/gate.json --jobs 14 --budget 50 --name gate-rerun" \
  timeout -k 10 70 scripts/gpu-run $R gate | tail -6; pack
cp $R/gate*.json /tmp/keep/ 2>/dev/null   # call 3 reruns what is still not reached, if the machine stays warm
