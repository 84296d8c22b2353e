#!/usr/bin/env bash
# 2026-12-04c call 5: the fast-accumulation half of the realistic set (552 calls) on this session's tree, so that the
# whole set is timed on one tree (call 3 timed the slow half); the bench stops itself at its budget.
set -u
R=$OUT/r; mkdir -p $R
FP8_BENCH_ARGS="--budget 285 --accum fast --graphs-only" timeout -k 5 330 scripts/gpu-run $R/bench fp8bench | tail -3
