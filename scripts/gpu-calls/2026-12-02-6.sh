#!/usr/bin/env bash
# 2026-12-02 call 6 (~5.5 min; issues 4 and 3): (1) 2026-12-02-pinned-2.sh: gemm_colsum's whole space under
# BITORDER_PINNED_CONVERT_SHUFFLE=1 (invariance, CPU reference, free patterns; no timing); (2) cross_entropy at five
# configurations, stock / BITORDER_PINNED_CONVERT_ROWS=1 / ROWS + SHUFFLE (compiled only so far), digests compared;
# (3) the census of the final tree on the last whole gate's cases (seed 20261620): where its 45,120 cases go now.
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
OUT=$OUT/p2 bash scripts/gpu-calls/2026-12-02-pinned-2.sh; mv $OUT/p2/results.tgz $OUT/pinned-2.tgz; rm -rf $OUT/p2
export PYTHONUNBUFFERED=1 BITORDER_PINNED_LAYOUTS=1
C="1,1,1;2,1,1;4,1,1;4,1,4;8,1,2"
for v in stock rows rows-shuffle; do
  case $v in stock) e="";; rows) e="BITORDER_PINNED_CONVERT_ROWS=1";; rows-shuffle) e="BITORDER_PINNED_CONVERT_ROWS=1 BITORDER_PINNED_CONVERT_SHUFFLE=1";; esac
  env $e PYTHONPATH=$PWD/src timeout -k 5 40 python3 benchmarks/pinned_time_configs.py cross_entropy --configs "$C" --rep 20 \
    --out $R/ce-$v.json 2>&1 | grep -v Warn | tail -7; pack
done
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the wheel once
CENSUS_ARGS="--seed 20261620 --budget 40 --name census-final" PYTHONPATH=src:/tmp/site timeout -k 5 55 scripts/gpu-run $R census | tail -40 | grep -v "^ *\"" ; pack
rm -rf $R
