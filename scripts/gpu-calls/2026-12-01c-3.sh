#!/usr/bin/env bash
# 2026-12-01c call 3 (issue 3): the rest of call 2's whole gate on call 2's own tree (ed06350's src, carried
# as .tree-ed06350: the working tree has candidates since, inert without BITORDER_UNVERIFIED=1); the
# planted fault of cuBLASLt's M = 1 bias placement on the gate's gemv ground (mutant-ltbias); a ground
# check of two candidates for algorithm 14 with M = 1: B row-major, and F.linear's bias (in the dot's
# fp32 sum, or added to the rounded dot).
# Needs call 2's JSON: carried as benchmarks/results/2026-12-01c-gate/gate-rerun.json.
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
quiet() { grep -v '^ ' | grep -v UserWarning | grep -v '^\['; }
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the wheel once
B=${BUDGET:-250}
( export PYTHONPATH=$PWD/.tree-ed06350/src:/tmp/site PYTHONUNBUFFERED=1 BITORDER_CACHE_DIR=/tmp/bitorder-cache
  timeout -k 5 $(( B + 60 )) python3 benchmarks/gate_gemm.py --out $R --jobs ${JOBS:-8} --budget $B --retry-oom 20 \
    --seed 20261250 --rerun benchmarks/results/2026-12-01c-gate/gate-rerun.json --name gate-rerun2 > $R/gate-rerun2.log 2>&1 )
quiet < $R/gate-rerun2.log | tail -8; pack
GATE_ARGS="--only gemv --jobs 12 --budget 60 --seed 20261251" timeout -k 5 110 scripts/gpu-run $R mutant-ltbias | quiet | tail -6; pack
for at in acc out; do
  BITORDER_UNVERIFIED=1 BITORDER_DOTS_BIAS=$at GATE_ARGS="--jobs 8 --budget 35 --seed 20261252 --name ground-dots-$at \
    --rerun benchmarks/results/2026-12-01c-ground/dots-m1-cases.json" timeout -k 5 70 scripts/gpu-run $R gate | quiet | tail -4; pack
done
