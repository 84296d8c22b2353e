#!/usr/bin/env bash
# Prepared 2026-12-02h for a next session (issue 3, ~3 min, H200 only): segment_k.WIDE's ground (algorithm 41's
# 256x64 run-time split). 2026-12-02h call 1's census of 480 perturbed shapes got the answer once (outside the
# region); this census takes 400 shapes inside the 10 records' own region (wide41-design.json), reruns those answered
# 41 256x64 under BITORDER_UNVERIFIED=1, then mutant-segk-wide over the same list. Check the census count first: a
# planted fault over a list planned elsewhere proves nothing.
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
g() { grep -v '^ ' | grep -v UserWarning | grep -v '^\[' | tail -${1:-6}; }
D=benchmarks/results/2026-12-02h-cases
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the wheel once
export PYTHONPATH=src:/tmp/site
CENSUS_ARGS="--rerun $D/wide41-design.json --budget 60 --name census-wide41" timeout -k 5 80 scripts/gpu-run $R census | g 1
python3 benchmarks/fallback_cases.py $R/cases-wide41.json $R/census-wide41.json --algo 41
gzip -kf $R/census-wide41.json; pack
export BITORDER_UNVERIFIED=1
GATE_ARGS="--jobs 12 --budget 120 --retry-oom 5 --seed ${SEED:?} --rerun $R/cases-wide41.json --name ground-wide41" \
  timeout -k 5 140 scripts/gpu-run $R gate | g 6; cp $R/gate.log $R/ground-wide41.log; pack
GATE_ARGS="--jobs 12 --budget 90 --retry-oom 5 --seed $((SEED+1)) --rerun $R/cases-wide41.json" \
  timeout -k 5 110 scripts/gpu-run $R mutant-segk-wide | g 4; pack
