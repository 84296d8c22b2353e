#!/usr/bin/env bash
# Next session, call 3 (~9.5 min): call 2's errored and not-reached cases (same tiles); the planted
# fault on this tree (nvjet split granule 64 -> 32, copied tree); the pinned suite with the layout
# pass and its coalescing guard (budgeted: it writes what it timed); the designed-input gemv probe
# (fit on the CPU afterwards: probe_gemv.py --fit); the start of the fp8 gate (row-wise scales now
# fall back; counts per scaling; TMA for promoting chains).
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
TILES=$(cat /tmp/keep/tiles 2>/dev/null || echo waves); echo "tiles: $TILES"
[ -f /tmp/keep/gate.json ] && BITORDER_TILES=$TILES GATE_ARGS="--rerun /tmp/keep/gate.json --jobs 8 --budget 100 --name gate-rerun" \
  timeout 130 scripts/gpu-run $R gate | tail -6; pack
BITORDER_TILES=$TILES timeout 110 scripts/gpu-run $R mutant | tail -5; pack
BITORDER_PINNED_LAYOUTS=1 PINNED_ARGS="--quick --jobs 12 --rep 5 --budget 150" timeout 185 scripts/gpu-run $R pinned | tail -14; pack
GEMV_ARGS="--budget 50" timeout 70 scripts/gpu-run $R gemv-probe | tail -4; pack
# the row-wise order call 1's probe found exact (if any) plans row-wise calls as a candidate here
BITORDER_FP8_ROWWISE_EPILOGUE="$(cat /tmp/keep/rowwise 2>/dev/null)" FP8_GATE_ARGS="--jobs 14 --budget 60 --retry-oom 5" \
  timeout 85 scripts/gpu-run $R fp8gate | tail -8; pack
