#!/usr/bin/env bash
# 2026-12-01d call 1 (~6 min; issue 3): ground check of the strided dot order (algorithm 14 with a vector
# strided along K: one element a thread a step, DotOrder vec 1, fitted on the CPU from the 2026-12-01c
# survey's walks) and of dots with more than 64 outputs, both under BITORDER_UNVERIFIED=1: census of two
# fresh seeds (defaults), their fallbacks and the 2026-12-01c gemv ground's rerun on fresh draws; the
# designed strided rows (dot_check --strided); a gemv probe of the census's algorithm-13 fallbacks.
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the wheel once
git log -1 --format=%H > $R/tree.txt 2>/dev/null; python3 -c "import bitorder; print(bitorder.__file__)" >> $R/tree.txt
for s in 20261300 20261301; do
  CENSUS_ARGS="--seed $s --budget 60 --name census-$s" timeout -k 5 90 scripts/gpu-run $R census | grep -v UserWarning | tail -2
done; pack
export PYTHONPATH=src:/tmp/site
python3 benchmarks/fallback_cases.py $R/ground-cases.json $R/census-2026130?.json benchmarks/results/2026-12-01c-gemv/gate-gemv.json
python3 benchmarks/fallback_cases.py $R/gemv-cases.json $R/census-2026130?.json --algo 13 --survey
BITORDER_UNVERIFIED=1 GATE_ARGS="--jobs 12 --budget 150 --retry-oom 10 --seed 20261302 --rerun $R/ground-cases.json --name ground" \
  timeout -k 5 200 scripts/gpu-run $R gate | grep -v '^ ' | grep -v UserWarning | grep -v '^\[' | tail -14; pack
BITORDER_UNVERIFIED=1 timeout -k 5 60 python3 benchmarks/dot_check.py --out $R --strided 2>&1 | grep -v UserWarning | tail -30; pack
GEMV_ARGS="--cases $R/gemv-cases.json --budget 50" timeout -k 5 80 scripts/gpu-run $R gemv-probe | grep -v UserWarning | tail -4; pack
