#!/usr/bin/env bash
# Next session, call 2 (~9.5 min): the whole GEMM gate with the tiles call 1 chose (default
# "waves" unless the persistent kernel was faster above 5 GFLOP with every byte identical).
set -u
R=$OUT/r; mkdir -p $R /tmp/keep
pack() { tar czf $OUT/results.tgz -C $OUT r; }
TILES=$(cat /tmp/keep/tiles 2>/dev/null || echo waves); echo "tiles: $TILES"
timeout 40 scripts/gpu-run $R report > /dev/null 2>&1
BITORDER_TILES=$TILES GATE_ARGS="--jobs 14 --budget 470 --retry-oom 40" timeout 540 scripts/gpu-run $R gate | tail -8; pack
cp $R/gate.json /tmp/keep/ 2>/dev/null
