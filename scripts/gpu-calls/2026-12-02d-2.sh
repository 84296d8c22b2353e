#!/usr/bin/env bash
# Prepared 2026-12-02c for a next session (issue 3, ~8 min): the ground check of the algorithm-42 segment-K
# candidate (src/bitorder/cublas/segment_k.py; fitted on the CPU from 32 records, benchmarks/results/
# 2026-12-02c-segment-k-cpu): fresh bf16 nt calls one wave of 132 tiles plus 1-20, N <= 64, K 6k-43k, whose
# answer is algorithm 42 split -1; torch's bytes against the twin on 12 left-over rows and 3 wave rows, three
# draws each. Then the planted fault (longer segments first: must differ) and the records' open alternative
# (s always 8: differs from the candidate where the workspace rule gives s != 8) on the same calls.
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the wheel once
export PYTHONPATH=src:/tmp/site BITORDER_UNVERIFIED=1
for v in candidate longer_first s_always_8; do
  timeout -k 5 150 python3 benchmarks/ground_segment_k.py --out $R --calls 40 --budget 40 --jobs 14 --variant $v \
    > $R/ground-$v.log 2>&1; echo "$v exit $?"; tail -1 $R/ground-$v.log | cut -c1-400; pack
done
