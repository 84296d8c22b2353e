#!/usr/bin/env bash
# Prepared 2026-12-02b for a next session (issue 4, ~3 min): the planted fault (the pinned fold's levels swapped,
# copied tree) on the tree where the two conversions are the pass's default, through a row kernel the rows
# conversion changes (cross_entropy) and the accumulator chain the shuffle conversion changes (gemm_colsum, a
# quarter of its space): each must stay invariant and miss the CPU reference (the gate fails).
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
BITORDER_PINNED_LAYOUTS=1 MUTANT_PINNED_CASE=cross_entropy timeout -k 5 80 scripts/gpu-run $R mutant-pinned | tail -4
cp $R/mutant-pinned.log $R/mutant-pinned-ce.log; pack
BITORDER_PINNED_LAYOUTS=1 MUTANT_PINNED_CASE=gemm_colsum MUTANT_PINNED_SHARES=4 timeout -k 5 100 scripts/gpu-run $R mutant-pinned | tail -4
cp $R/mutant-pinned.log $R/mutant-pinned-gc.log; pack
