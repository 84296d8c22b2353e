#!/usr/bin/env bash
# 2026-12-03 call 2 (H200, ~7 min), tree with segment_k.WIDE and UNSPLIT verified (call 1's grounds): WIDE's ground
# again on a fresh seed 20261940 (call 1's wide/ files exceeded the tool's file count and did not come back), then
# issue 3's whole fp16/bf16 gate, half 1, fresh seed 20261930; then the gate's own planted fault (scripts/mutant-gate
# --quick: nvjet split granule 64 -> 32 in a copied tree). Only tarballs go under $OUT (the tool's file count).
set -u
O=$OUT; mkdir -p /tmp/o2
OUT=/tmp/o2/wide SEED=20261940 bash scripts/gpu-calls/next-wide41.sh; cp /tmp/o2/wide/results.tgz $O/wide.tgz
OUT=/tmp/o2/gate HALF=1 SEED=20261930 bash scripts/gpu-calls/next-issue3-gate.sh
MUTANT_ARGS="--jobs 12 --budget 60 --seed 20261936" timeout -k 5 90 scripts/gpu-run /tmp/o2/gate/r mutant | grep -v '^ ' | grep -v UserWarning | tail -4
tar czf $O/gate.tgz -C /tmp/o2/gate r
