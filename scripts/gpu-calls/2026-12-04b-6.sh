#!/usr/bin/env bash
# 2026-12-04b call 6 (issue 6): the last calls of the realistic set (995:1104; call 5's budget stopped at 995),
# same tree as calls 4-5. Run as one command line:
FP8_BENCH_ARGS="--budget 100 --slice 995:1104 --graphs-only" timeout -k 5 125 scripts/gpu-run $OUT/r/bench fp8bench | tail -2
