#!/usr/bin/env bash
# 2026-11-30e, call 4 (the last 225 s of the session): issue 3's planted fault on the auto tiles, then
# the checker gate. The device tool's limit (225 s) stopped it during the mutant gate: see the results.
R=$OUT/r; mkdir -p $R; pack() { tar czf $OUT/results.tgz -C $OUT r; }; timeout 30 scripts/gpu-run $R report > /dev/null 2>&1; BITORDER_TILES=auto timeout 110 scripts/gpu-run $R mutant | tail -5; pack; CHECKER_ARGS="--jobs 12 --draws 5 --budget 40" timeout 60 scripts/gpu-run $R checker | tail -3; pack
