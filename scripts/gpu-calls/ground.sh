#!/usr/bin/env bash
# A candidate's ground in one call (used by the prepared next-* scripts): census of DESIGN (a case list), keep the
# calls the census planned to cuBLAS with algorithm ALGO, rerun them on fresh draws under BITORDER_UNVERIFIED=1
# (output ground-NAME), then the planted fault MUTANT (a scripts/gpu-run job) over the same list. Check the kept
# count in the output: a fault over a list planned elsewhere proves nothing.
#   SEED=... bash scripts/gpu-calls/ground.sh DESIGN ALGO NAME MUTANT
set -u
design=${1:?DESIGN} algo=${2:?ALGO} name=${3:?NAME} mutant=${4:?MUTANT}
# STAGE (a folder off $OUT): where the case files go; only results.tgz lands under $OUT (the device tool drops
# files past a count, 2026-12-03 call 1). Unset: under $OUT, as the dated calls before 2026-12-03b ran it.
R=${STAGE:-$OUT}/r; mkdir -p $R $OUT
pack() { tar czf $OUT/results.tgz -C ${STAGE:-$OUT} r; }
g() { grep -v '^ ' | grep -v UserWarning | grep -v '^\[' | tail -${1:-6}; }
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the wheel once
export PYTHONPATH=src:/tmp/site
CENSUS_ARGS="--rerun $design --budget 60 --name census-$name" timeout -k 5 80 scripts/gpu-run $R census | g 1
python3 benchmarks/fallback_cases.py $R/cases-$name.json $R/census-$name.json --algo $algo
gzip -kf $R/census-$name.json; pack
export BITORDER_UNVERIFIED=1
GATE_ARGS="--jobs 12 --budget 110 --retry-oom 5 --seed ${SEED:?} --rerun $R/cases-$name.json --name ground-$name" \
  timeout -k 5 130 scripts/gpu-run $R gate | g 6; cp $R/gate.log $R/ground-$name.log; pack
GATE_ARGS="--jobs 12 --budget 80 --retry-oom 5 --seed $((SEED+1)) --rerun $R/cases-$name.json" \
  timeout -k 5 100 scripts/gpu-run $R $mutant | g 4; pack
