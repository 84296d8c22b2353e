#!/usr/bin/env bash
# 2026-12-02 second session, call 4 (~6 min): the final tree (call 3's candidates verified) on the whole gate's
# ground, then a first look at the pinned suite under the two conversion switches.
#  (1) the 38 fallbacks of call 2's whole gate (seed 20261802) rerun on fresh draws: the 3 non-tail ones now plan
#      Triton paths, the 35 nvjet tail drops stay cuBLAS's;
#  (2) a census (plans only) of that gate's 45,120 cases on the final tree, and of two fresh seeds' 45,120 each:
#      where fallbacks remain;
#  (3) issue 4: cross_entropy and softmax over their whole space under
#      BITORDER_PINNED_CONVERT_ROWS=1 BITORDER_PINNED_CONVERT_SHUFFLE=1 (invariance, CPU reference, timing).
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
g() { grep -v '^ ' | grep -v UserWarning | grep -v '^\[' | tail -${1:-6}; }
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1
export PYTHONPATH=src:/tmp/site
python3 benchmarks/fallback_cases.py $R/fb.json benchmarks/results/2026-12-02b-gpu/call2/gate.json
GATE_ARGS="--jobs 12 --budget 40 --retry-oom 5 --seed 20261806 --rerun $R/fb.json --name fallbacks-final" \
  timeout -k 5 60 scripts/gpu-run $R gate | g 4; cp $R/gate.log $R/fallbacks-final.log; pack
for s in 20261802 20261807 20261808; do
  CENSUS_ARGS="--seed $s --name census-$s" timeout -k 5 50 scripts/gpu-run $R census | g 1; cp $R/census.log $R/census-$s.log
done
gzip $R/census-*.json; pack
BITORDER_PINNED_LAYOUTS=1 BITORDER_PINNED_CONVERT_ROWS=1 BITORDER_PINNED_CONVERT_SHUFFLE=1 \
  PINNED_ARGS="--jobs 14 --rep 3 --budget 150 --kernels cross_entropy,softmax" \
  timeout -k 10 175 scripts/gpu-run $R pinned | tail -12; pack
rm -rf $R
