#!/usr/bin/env bash
# Next session, call 3 (~8-9 min): call 2's gate cases still not reached, on the same tiles (if the
# machine stayed warm); issue 3's planted fault on the tiles call 1 chose (parallel and
# budgeted: 2026-11-30e's serial run on the auto tiles passed 110 s compiling and wrote nothing);
# issue 7's twin gate again with headroom (2026-11-30e compared 1,999 fp16 and 1,998 bf16 shapes:
# 3 replays were still running at the budget) and compared_shapes recorded.
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
TILES=$(cat /tmp/keep/tiles 2>/dev/null || echo waves); echo "tiles: $TILES"
timeout 30 scripts/gpu-run $R report > /dev/null 2>&1
if [ -f /tmp/keep/gate-rerun.json ] && python3 -c "import json,sys; sys.exit(json.load(open('/tmp/keep/gate-rerun.json'))['n_not_reached'] == 0)"; then
  BITORDER_TILES=$TILES GATE_ARGS="--rerun /tmp/keep/gate-rerun.json --jobs 14 --budget 60 --name gate-rerun2" \
    timeout 80 scripts/gpu-run $R gate | tail -4; pack
fi
BITORDER_TILES=$TILES MUTANT_ARGS="--jobs 12 --budget 120" timeout 170 scripts/gpu-run $R mutant | tail -5; pack
TWIN_ARGS="--count 2020 --fp8 710 --budget 240" timeout 265 scripts/gpu-run $R twin | tail -1 | cut -c1-3000; pack
