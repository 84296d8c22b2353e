#!/usr/bin/env bash
# 2026-12-02g call 2 (issue 3, ~5 min): ground checks of what call 1's records read, each with its planted fault.
# (a) algorithm 41's 256x64 run-time split (segment_k.WIDE: every tile split into s = workspace // (tiles*256*64*4)
# segments, or the plain chain at workspace 0; fits call 1's 10 records): 480 designed shapes (M 1-64, 36-80 tiles,
# K 1.5k-40k, fp16/bf16, all four layouts), their census on the default tree, the ones answered 41 256x64 rerun as a
# gate under BITORDER_UNVERIFIED=1 (three fresh draws each); then mutant-segk-wide (longer segments first) over them.
# (b) the gemv candidates option 13 fp16 / 68 bf16: shapes near call 1's probed ones, census, the ones answered
# 13/68 rerun under BITORDER_UNVERIFIED=1; then mutant-probed-j (13 as 8 lanes, 68 bf16 as 2). (c) Answers only
# (census) for option 10's batched dots: call 1's 90 probed shapes and a grid of K x batch.
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
g() { grep -v '^ ' | grep -v UserWarning | grep -v '^\[' | tail -${1:-6}; }
D=benchmarks/results/2026-12-02g-cases
C=benchmarks/results/2026-12-02g-gpu/call1
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the wheel once
export PYTHONPATH=src:/tmp/site
CENSUS_ARGS="--rerun $D/wide41-draw.json --budget 40 --name census-wide41" timeout -k 5 60 scripts/gpu-run $R census | g 1
python3 benchmarks/fallback_cases.py $R/ground41w.json $R/census-wide41.json --algo 41
python3 benchmarks/neighbors.py $R/near13b.json $C/probe13.json --per 20 --seed 20261874
CENSUS_ARGS="--rerun $R/near13b.json --budget 30 --name census-near13b" timeout -k 5 50 scripts/gpu-run $R census | g 1
python3 benchmarks/fallback_cases.py $R/ground13.json $R/census-near13b.json --algo 13 --options 13,68
CENSUS_ARGS="--rerun $D/dots-gap-census.json --budget 20 --name census-dots-gap" timeout -k 5 40 scripts/gpu-run $R census | g 1
CENSUS_ARGS="--rerun $D/dots-grid.json --budget 30 --name census-dots-grid" timeout -k 5 50 scripts/gpu-run $R census | g 1
gzip -kf $R/census-*.json; pack
export BITORDER_UNVERIFIED=1
GATE_ARGS="--jobs 12 --budget 100 --retry-oom 5 --seed 20261875 --rerun $R/ground41w.json --name ground41w" \
  timeout -k 5 130 scripts/gpu-run $R gate | g 6; cp $R/gate.log $R/ground41w.log; pack
GATE_ARGS="--jobs 12 --budget 50 --retry-oom 5 --seed 20261876 --rerun $R/ground13.json --name ground13" \
  timeout -k 5 75 scripts/gpu-run $R gate | g 6; cp $R/gate.log $R/ground13.log; pack
GATE_ARGS="--jobs 12 --budget 40 --retry-oom 5 --seed 20261877 --rerun $R/ground41w.json" \
  timeout -k 5 70 scripts/gpu-run $R mutant-segk-wide | g 4; pack
GATE_ARGS="--jobs 12 --budget 30 --retry-oom 5 --seed 20261878 --rerun $R/ground13.json" \
  timeout -k 5 60 scripts/gpu-run $R mutant-probed-j | g 4; pack
