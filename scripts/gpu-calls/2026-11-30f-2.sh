#!/usr/bin/env bash
# Next session, call 2 (~9.5 min; issue 3): the whole GEMM gate (45,120 cases) with the tiles call 1
# chose, then the rerun of what the budget left, in the same call (the machine may not stay warm).
set -u
R=$OUT/r; mkdir -p $R /tmp/keep
pack() { tar czf $OUT/results.tgz -C $OUT r; }
TILES=$(cat /tmp/keep/tiles 2>/dev/null || echo waves); echo "tiles: $TILES"
timeout 30 scripts/gpu-run $R report > /dev/null 2>&1
BITORDER_TILES=$TILES GATE_ARGS="--jobs 14 --budget 435 --retry-oom 35" timeout 490 scripts/gpu-run $R gate | tail -8; pack
[ -f $R/gate.json ] && BITORDER_TILES=$TILES GATE_ARGS="--rerun $R/gate.json --jobs 14 --budget 55 --name gate-rerun" \
  timeout 75 scripts/gpu-run $R gate | tail -6; pack
cp $R/gate*.json /tmp/keep/ 2>/dev/null   # call 3 reruns what is still not reached, if the machine stays warm
