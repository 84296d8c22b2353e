#!/usr/bin/env bash
# Next session, call 4 (what is left, ~4 min): issue 3's planted fault on the tree with the tiles
# call 1 chose; issue 5's checker gate over the corpus (TorchInductor's captured kernels now in it).
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
TILES=$(cat /tmp/keep/tiles 2>/dev/null || echo waves); echo "tiles: $TILES"
timeout 30 scripts/gpu-run $R report > /dev/null 2>&1
BITORDER_TILES=$TILES timeout 110 scripts/gpu-run $R mutant | tail -5; pack
CHECKER_ARGS="--jobs 12 --draws 5 --budget 120" timeout 150 scripts/gpu-run $R checker | tail -3; pack
