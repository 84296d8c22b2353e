#!/usr/bin/env bash
# 2026-12-02f call 1 (issue 3, ~9 min): scripts/gpu-calls/next-segk.sh as prepared 2026-12-02d/e, run on tree 2026-12-02f
# (segment_k.KERNELS' verified flags both False: the ground runs under BITORDER_UNVERIFIED=1). Its header:
# Prepared 2026-12-02d (CPU session, issue 3; ~6 min): the second ground check of the segment-K reading
# (src/bitorder/cublas/segment_k.py), now with torch's bits kept. 2026-12-02d call 2 stored only differ counts;
# on the CPU the merge "pairwise" (partials summed pairwise, paired from the last segment, an odd first one
# passing up) reproduced all 171 of its counts (19 calls x 3 draws x 3 twins) where the merge then planned
# (segments 1..s-1 in K order, segment 0 last) missed 1,210 outputs of the cancelling draws; the same
# reading, with 128x128 tiles in a serpentine order, fits the 35 algorithm-41 records
# (benchmarks/results/2026-12-02d-segment-k-cpu/README.md). One run: ~36 fresh algorithm-42 calls (bf16 nt,
# N <= 64, 133-152 tiles, at most 4 per segment count s, so that odd s are reached) and ~12 fresh algorithm-41
# calls (fp16 nt, 266-330 tiles), three draws each; torch's bits on every checked output kept; the twins side
# by side on the same outputs: candidate (must be 0), pairwise_first (differs only where s is not a power of
# two), part0_last (the old merge: must differ on the cancelling draws), longer_first (planted fault: must
# differ), s_always_8, rowmajor (41: the partly split n-tile row's m-tiles ascending: must differ there).
# 2026-12-02e: --triton runs bitorder.matmul's segment-K path (src/bitorder/gemm/segment_k.py, CPU-tested
# under the interpreter against the twin) on every draw too: its whole output against torch's (differ_torch)
# and its checked rows against the candidate twin (differ_twin), both must be 0 and every call must plan
# "segk". Then its planted fault on a copied tree (the merge paired from segment 0): must fail (~2 min).
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the wheel once
export PYTHONPATH=src:/tmp/site BITORDER_UNVERIFIED=1
timeout -k 5 330 python3 benchmarks/ground_segment_k.py --out $R --calls42 36 --calls41 12 --draw 600 \
  --per-s 4 --plan-budget 30 --budget 100 --jobs 14 --triton > $R/ground.log 2>&1; echo "ground exit $?"
grep '^\[ground\]' $R/ground.log | cut -c1-600; tail -1 $R/ground.log | cut -c1-1500; pack
mkdir -p $R/mutant-segk
timeout -k 5 170 scripts/mutant-run src/bitorder/gemm/segment_k.py 'merge_parts(parts, p.merge, add=torch.add)' \
  'merge_parts(parts, "pairwise_first", add=torch.add)' -- python3 benchmarks/ground_segment_k.py --out $R/mutant-segk \
  --calls42 10 --calls41 4 --draw 300 --per-s 2 --plan-budget 20 --budget 50 --jobs 14 --triton \
  --variants candidate > $R/mutant-segk.log 2>&1; echo "mutant-segk exit $? (0: the fault was caught)"
grep -E '^(mutant|imports|\[ground\] bitorder)' $R/mutant-segk.log; tail -1 $R/mutant-segk.log | cut -c1-800; pack
