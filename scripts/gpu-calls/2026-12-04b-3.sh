#!/usr/bin/env bash
# 2026-12-04b call 3: PART 5 of scripts/gpu-calls/next-fp8-tiles.sh (tree 64c4608): the persistent Gluon kernel
# (FP8_WS_TILES_PERSISTENT=1 benchmarks/fp8_ws_tiles.py) at the tiles call 4 of 2026-12-04 timed.
PART=5 bash scripts/gpu-calls/next-fp8-tiles.sh
