#!/usr/bin/env bash
# 2026-12-02 call 2 (~4 min; issue 3): more ground for the candidates call 1 saw identical on a few calls (options 73 /
# 114 fp16, algorithm 21 scheme 4, algorithm 41/42 run-time splits, option 82 bf16, option 75 fp16's short batched
# dots): shapes near every non-tail fallback of call 1's census and the 12-01g gate (benchmarks/neighbors.py), a census
# of them on the default tree, their fallbacks of those families rerun under BITORDER_UNVERIFIED=1 on fresh draws; then
# the planted faults on the same ground: mutant-probed-g (the gemv candidates misread) and mutant-entries (the
# algorithm-21 entries' split granule doubled).
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
g() { grep -v '^ ' | grep -v UserWarning | grep -v '^\[' | tail -${1:-6}; }
D=benchmarks/results/2026-12-02-cases
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the wheel once
export PYTHONPATH=src:/tmp/site
python3 benchmarks/neighbors.py $R/nb.json $D/left-census-4x.json $D/left-12-01g.json --per 200 --seed 20261703
CENSUS_ARGS="--rerun $R/nb.json --budget 60 --name census-nb" timeout -k 5 75 scripts/gpu-run $R census | g 1; rm $R/nb.json; pack
python3 benchmarks/fallback_cases.py $R/nb21.json $R/census-nb.json --algo 21,41,42
python3 benchmarks/fallback_cases.py $R/nb13.json $R/census-nb.json --algo 13 --options 73,82,114,75
python3 - $R/nb-cands.json $R/nb21.json $R/nb13.json <<'PY'
import json, random, sys
a = []
for p in sys.argv[2:]:
    c = json.load(open(p))["not_reached_cases"]; random.Random(1).shuffle(c); a += c[:150]
json.dump({"not_reached_cases": a}, open(sys.argv[1], "w")); print(f"[nb-cands] {len(a)} cases")
PY
BITORDER_UNVERIFIED=1 GATE_ARGS="--jobs 12 --budget 75 --retry-oom 10 --seed 20261704 --rerun $R/nb-cands.json --name nb-ground" \
  timeout -k 5 100 scripts/gpu-run $R gate | g 8; cp $R/gate.log $R/nb-ground.log; pack
BITORDER_UNVERIFIED=1 GATE_ARGS="--jobs 12 --budget 40 --retry-oom 5 --seed 20261705 --rerun $R/nb13.json" \
  timeout -k 5 60 scripts/gpu-run $R mutant-probed-g | g 4; pack
BITORDER_UNVERIFIED=1 GATE_ARGS="--jobs 12 --budget 40 --retry-oom 5 --seed 20261706 --rerun $R/nb21.json" \
  timeout -k 5 60 scripts/gpu-run $R mutant-entries | g 4; pack
