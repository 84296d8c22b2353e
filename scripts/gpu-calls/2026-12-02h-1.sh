#!/usr/bin/env bash
# 2026-12-02h call 1 (issue 3, H200): next-wide41-dots.sh (the 256x64 ground and the option-10 fp16 dot candidates,
# each with its planted fault) and then the dot batch bound's copied-tree fault: the 28 dots past 80 of 2026-12-02g
# on the default tree (must be identical: they go to cuBLAS) and under mutant-dot-batch (bound lifted: must fail).
set -u
SEED=20261900 bash scripts/gpu-calls/next-wide41-dots.sh
R=$OUT/r; export PYTHONPATH=src:/tmp/site; unset BITORDER_UNVERIFIED
g() { grep -v '^ ' | grep -v UserWarning | grep -v '^\[' | tail -${1:-6}; }
GATE_ARGS="--jobs 12 --budget 25 --retry-oom 5 --seed 20261910 --rerun benchmarks/results/2026-12-02g-cases/dots-past80.json --name ground-dot-batch" \
  timeout -k 5 40 scripts/gpu-run $R gate | g 4; cp $R/gate.log $R/ground-dot-batch.log
GATE_ARGS="--jobs 12 --budget 25 --retry-oom 5 --seed 20261911 --rerun benchmarks/results/2026-12-02g-cases/dots-past80.json" \
  timeout -k 5 40 scripts/gpu-run $R mutant-dot-batch | g 4
tar czf $OUT/results.tgz -C $OUT r
