#!/usr/bin/env bash
# Prepared 2026-12-03b for a next session (issue 3, ~4 min, H200): the ground of the 19 batched-dot candidates read
# from 2026-12-03b call 5's records (entries with batch bounds). Census of 979 designed dots inside their regions
# (benchmarks/results/2026-12-03b-cases/dots-ground.json), the calls sent to cuBLAS rerun on fresh draws under
# BITORDER_UNVERIFIED=1, then mutant-dots-map over the same list; verify-candidates.py then flips, in this copy,
# every candidate with at least 3 identical ground calls. Run the whole gate on that tree afterwards (thirds:
# next-issue3-gate.sh THIRD=1..3), re-running verify-candidates.py on the same JSONs first in each call (/tmp
# persisted between calls on a warm machine, 2026-12-03b), and make the same edit in the checkout before committing.
#   SEED=<fresh> STAGE=/tmp/oN OUT=$OUT/dots bash scripts/gpu-calls/next-dots-map.sh
set -u
R=${STAGE:-$OUT}/r; mkdir -p $R $OUT
pack() { tar czf $OUT/results.tgz -C ${STAGE:-$OUT} r; }
g() { grep -v '^ ' | grep -v UserWarning | grep -v '^\[' | tail -${1:-6}; }
D=benchmarks/results/2026-12-03b-cases
[ -n "${SKIP_REPORT:-}" ] || timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1   # installs the wheel once
export PYTHONPATH=src:/tmp/site
CENSUS_ARGS="--rerun $D/dots-ground.json --budget 30 --name census-dground" timeout -k 5 45 scripts/gpu-run $R census | g 1
python3 benchmarks/fallback_cases.py $R/cases-dground.json $R/census-dground.json --algo 13
gzip -kf $R/census-dground.json; pack
GATE_ARGS="--jobs 14 --budget 70 --retry-oom 5 --seed ${SEED:?} --rerun $R/cases-dground.json --name ground-dground" \
  BITORDER_UNVERIFIED=1 timeout -k 5 85 scripts/gpu-run $R gate | g 6; cp $R/gate.log $R/ground-dground.log; pack
GATE_ARGS="--jobs 14 --budget 45 --retry-oom 5 --seed $((SEED+1)) --rerun $R/cases-dground.json" \
  BITORDER_UNVERIFIED=1 timeout -k 5 60 scripts/gpu-run $R mutant-dots-map | g 4; pack
python3 scripts/gpu-calls/verify-candidates.py $R/census-dground.json $R/ground-dground.json \
  $R/mutant-dots-map/mutant_dots_map.json > $R/verify.txt; cat $R/verify.txt; pack
