#!/usr/bin/env bash
# 2026-12-02h call 6 (issue 3, H200, ~3 min): records for the last non-defect fallbacks of the whole gate (calls 2-3):
# algorithm 41, tile 64x64, split_k -1, fp16 F.linear with a bias (2 cases). Shapes near them (neighbors.py), their
# census, then a survey (kernels, answer with workspace, walks, sampled bits) of those answered 41 with split_k -1.
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
g() { grep -v '^ ' | grep -v UserWarning | grep -v '^\[' | tail -${1:-6}; }
D=benchmarks/results/2026-12-02h-cases
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the wheel once
export PYTHONPATH=src:/tmp/site
python3 benchmarks/neighbors.py $R/near41b.json $D/left41-bias.json --per 30 --seed 20261930
python3 - $R/near41b.json $D/left41-bias.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); d["not_reached_cases"] += json.load(open(sys.argv[2]))["not_reached_cases"]
json.dump(d, open(sys.argv[1], "w"))
PY
CENSUS_ARGS="--rerun $R/near41b.json --budget 25 --name census-near41b" timeout -k 5 45 scripts/gpu-run $R census | g 1
python3 benchmarks/fallback_cases.py $R/survey41b.json $R/census-near41b.json --algo 41 --survey
gzip -kf $R/census-near41b.json; pack
SURVEY_ARGS="--cases $R/survey41b.json --budget 75 --name survey-41-bias" timeout -k 5 95 scripts/gpu-run $R survey | g 3; pack
