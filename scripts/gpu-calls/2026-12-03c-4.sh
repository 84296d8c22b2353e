#!/usr/bin/env bash
# 2026-12-03c call 4 (issue 3, ~4 min, H200) on the final tree (the flip of call 2 committed): the speed of the
# realistic set (bench_gemm.py, CUDA graphs, budget 100 s), then the gate's own planted fault (scripts/mutant-gate
# --quick: nvjet split granule 64 -> 32 in a copied tree, seed 20262140). Only a tarball under $OUT.
set -u
O=$OUT; S=/tmp/o4; mkdir -p $S/r
BENCH_ARGS="--budget 100" timeout -k 5 140 scripts/gpu-run $S/r bench | grep -v UserWarning | tail -16
tar czf $O/call4.tgz -C $S r
MUTANT_ARGS="--jobs 12 --budget 60 --seed 20262140" timeout -k 5 90 scripts/gpu-run $S/r mutant | grep -v '^ ' | grep -v UserWarning | tail -4
tar czf $O/call4.tgz -C $S r
