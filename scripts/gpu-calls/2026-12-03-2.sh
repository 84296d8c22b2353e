#!/usr/bin/env bash
# 2026-12-03 call 2 (H200, ~6 min): issue 3's whole fp16/bf16 gate, half 1, fresh seed 20261930, on the tree that
# verifies the grounded candidates; then the gate's own planted fault (scripts/mutant-gate --quick: nvjet split granule
# 64 -> 32 in a copied tree) on the same tree.
set -u
O=$OUT
OUT=$O HALF=1 SEED=20261930 bash scripts/gpu-calls/next-issue3-gate.sh
MUTANT_ARGS="--jobs 12 --budget 60 --seed 20261936" timeout -k 5 90 scripts/gpu-run $O/r mutant | grep -v '^ ' | grep -v UserWarning | tail -4
tar czf $O/results.tgz -C $O r
