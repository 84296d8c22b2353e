#!/usr/bin/env bash
# Prepared 2026-12-04c (optional, ~1.5 min with the cold start): the 54 pure-chain calls of the realistic set that
# 2026-12-04c call 5's budget did not reach (--accum fast --slice 498:), so that the whole set is timed on one tree.
# Then on the CPU: python3 benchmarks/bench_fp8.py --out DIR --merge <2026-12-04b calls 4-6 JSONs>
#   --replace <2026-12-04c call 3 JSON> <2026-12-04c call 5 JSON> <this run's JSON>
# Move benchmarks/results out first (64 MiB).
set -u
R=$OUT/r; mkdir -p $R
FP8_BENCH_ARGS="--budget 120 --accum fast --slice 498: --graphs-only" timeout -k 5 160 scripts/gpu-run $R/bench fp8bench \
  | tail -3
