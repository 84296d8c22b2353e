#!/usr/bin/env bash
# 2026-12-04b call 1: PART 1 of scripts/gpu-calls/next-fp8-tiles.sh (tree 64c4608): 16 GPU tests of
# test_fp8_gluon.py, then bench_fp8 --graphs-only on calls 0:360 of the shuffled realistic set with
# BITORDER_FP8_WS_TILES off, then on, compared.
PART=1 bash scripts/gpu-calls/next-fp8-tiles.sh
