#!/usr/bin/env bash
# 2026-12-04b call 2: PART 2 of scripts/gpu-calls/next-fp8-tiles.sh (tree 64c4608): the fp8 gate with
# BITORDER_FP8_WS_TILES=1 on the cases fp8.ws_tile names a tile for (fresh seed), then mutant-fp8-ws.
PART=2 SEED=4120604 bash scripts/gpu-calls/next-fp8-tiles.sh
