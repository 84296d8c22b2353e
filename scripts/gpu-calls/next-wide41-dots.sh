#!/usr/bin/env bash
# (Ran 2026-12-02h as part of call 1, 2026-12-02h-1.sh; kept for that record. For the 256x64 ground use next-wide41.sh.)
# Prepared 2026-12-02g for a next session (issue 3, ~4 min; useful on an H200 only: the H100 does not answer
# algorithm 41 with 256x64 tiles). (a) The 256x64 run-time split candidate (segment_k.WIDE): 480 designed shapes,
# their census, those answered 41 256x64 rerun under BITORDER_UNVERIFIED=1, then mutant-segk-wide over the same list
# (kept apart from the gate's output name). (b) Option 10 fp16's batched-dot candidates K 16-43: call 1's fp16
# dot shapes, census, those answered option 10 rerun under BITORDER_UNVERIFIED=1, then mutant-dots-gap.
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
g() { grep -v '^ ' | grep -v UserWarning | grep -v '^\[' | tail -${1:-6}; }
D=benchmarks/results/2026-12-02g-cases
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the wheel once
export PYTHONPATH=src:/tmp/site
CENSUS_ARGS="--rerun $D/wide41-draw.json --budget 40 --name census-wide41" timeout -k 5 60 scripts/gpu-run $R census | g 1
python3 benchmarks/fallback_cases.py $R/cases-wide41.json $R/census-wide41.json --algo 41
CENSUS_ARGS="--rerun $D/dots-gap-census.json --budget 20 --name census-dots" timeout -k 5 40 scripts/gpu-run $R census | g 1
python3 benchmarks/fallback_cases.py $R/cases-dots.json $R/census-dots.json --algo 13 --options 10
gzip -kf $R/census-*.json; pack
export BITORDER_UNVERIFIED=1
GATE_ARGS="--jobs 12 --budget 100 --retry-oom 5 --seed ${SEED:?} --rerun $R/cases-wide41.json --name ground-wide41" \
  timeout -k 5 130 scripts/gpu-run $R gate | g 6; cp $R/gate.log $R/ground-wide41.log; pack
GATE_ARGS="--jobs 12 --budget 40 --retry-oom 5 --seed $((SEED+1)) --rerun $R/cases-wide41.json" \
  timeout -k 5 70 scripts/gpu-run $R mutant-segk-wide | g 4; pack
GATE_ARGS="--jobs 12 --budget 30 --retry-oom 5 --seed $((SEED+2)) --rerun $R/cases-dots.json --name ground-dots" \
  timeout -k 5 50 scripts/gpu-run $R gate | g 6; cp $R/gate.log $R/ground-dots.log; pack
GATE_ARGS="--jobs 12 --budget 30 --retry-oom 5 --seed $((SEED+3)) --rerun $R/cases-dots.json" \
  timeout -k 5 50 scripts/gpu-run $R mutant-dots-gap | g 4; pack
