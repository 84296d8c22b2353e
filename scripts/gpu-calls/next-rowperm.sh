#!/usr/bin/env bash
# Prepared 2026-12-02c for a next session (issue 4, ~2.5 min): gemm_colsum with A's rows loaded permuted and the
# accumulator's rows un-permuted before the pinned sum (benchmarks/pinned_rowperm.py; CPU: SASS without the
# shuffle mode's selects and spills, the checker certifies it equal to the stock pinned kernel at 4 warps), against
# the stock pinned and free kernels at every (num_warps, BN) of the suite's space, num_stages 1, the suite's
# timing sizes: bytes (permuted = stock pinned = CPU reference) and CUDA-graph medians. If the permuted kernel's
# best is within 10% of free's best, the layout pass should do this rewrite itself (TTIR: A's row index, the
# accumulator's relabelling); this run only measures the hand-written form.
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
PYTHONPATH=src timeout -k 5 240 python3 benchmarks/pinned_rowperm.py --gpu --out $R > $R/rowperm.log 2>&1; tail -3 $R/rowperm.log; pack
