#!/usr/bin/env bash
# Prepared 2026-12-02c for a next session (issue 4, ~6 min): gemm_colsum's pinned column sum with the dot's A rows
# permuted and the accumulator relabelled back, so the tree's low row bits are registers at 1-2 warps (mma.sync).
# (1) benchmarks/pinned_rowperm.py --gpu: the hand-written form against the stock pinned and free kernels at
#     every (num_warps, BN), num_stages 1, timing sizes: bytes (= stock pinned = CPU reference) and CUDA-graph times;
# (2) the layout pass's own rewrite (BITORDER_PINNED_ROWPERM=1, compiler/rowperm.py, off by default) over
#     gemm_colsum's whole suite space: invariance, the CPU reference, best pinned over best free (the 10% item);
# (3) its planted fault mutant-rowperm (the accumulator relabelled with A's order), which must fail.
# If (2) is within 10% with every pinned output one pattern, make ROWPERM the pass's default and rerun (3) there.
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
PYTHONPATH=src timeout -k 5 240 python3 benchmarks/pinned_rowperm.py --gpu --out $R > $R/rowperm.log 2>&1; tail -3 $R/rowperm.log; pack
mkdir -p $R/suite
BITORDER_PINNED_LAYOUTS=1 BITORDER_PINNED_ROWPERM=1 PINNED_ARGS="--jobs 14 --rep 3 --budget 150 --kernels gemm_colsum" \
  timeout -k 10 180 scripts/gpu-run $R/suite pinned | tail -4; pack
BITORDER_PINNED_LAYOUTS=1 BITORDER_PINNED_ROWPERM=1 timeout -k 5 90 scripts/gpu-run $R mutant-rowperm | tail -4; pack
