#!/usr/bin/env bash
# 2026-12-02g call 1 (issue 3, ~5.5 min): records for the CPU reading of the last non-defect fallbacks of four fresh
# seeds (2026-12-02f: 6 in 180,480 cases). (a) A designed gemv probe of option 10's batched dots over the K ranges
# no record covers (fp16 K 16-43, bf16 K 35-94: the lane count changes inside them), the two fallbacks included;
# (b) shapes near the option-13 fp16 and option-68 bf16 gemv fallbacks (neighbors.py), their census, the ones
# answered 13/68 probed the same way; (c) shapes near the two algorithm-41 256x64 run-time-split fallbacks (layout
# tt), their census, a survey (kernels, answer with workspace, walks, sampled bits) of those answered 41 256x64.
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
g() { grep -v '^ ' | grep -v UserWarning | grep -v '^\[' | tail -${1:-6}; }
D=benchmarks/results/2026-12-02g-cases
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the wheel once
export PYTHONPATH=src:/tmp/site
timeout -k 5 100 python3 -m bitorder probe gemv --cases $D/dots-gap.json --out $R/gemv-dots --budget 85 > $R/gemv-dots.log 2>&1
tail -2 $R/gemv-dots.log; gzip -f $R/gemv-dots/probe_gemv.json; pack
python3 benchmarks/neighbors.py $R/near13.json $D/left13.json --per 16 --seed 20261871
python3 benchmarks/neighbors.py $R/near41.json $D/left41.json --per 30 --seed 20261872
python3 - $R/near.json $R/near13.json $R/near41.json <<'PY'
import json, sys
cs = [c for p in sys.argv[2:] for c in json.load(open(p))["not_reached_cases"]]
json.dump({"not_reached_cases": cs}, open(sys.argv[1], "w"))
PY
CENSUS_ARGS="--rerun $R/near.json --budget 40 --name census-near" timeout -k 5 60 scripts/gpu-run $R census | g 1
python3 benchmarks/fallback_cases.py $R/probe13.json $R/census-near.json --algo 13 --options 13,68 --survey
python3 benchmarks/fallback_cases.py $R/survey41.json $R/census-near.json --algo 41 --survey
gzip -f $R/census-near.json; pack
timeout -k 5 75 python3 -m bitorder probe gemv --cases $R/probe13.json --out $R/gemv-13 --budget 60 > $R/gemv-13.log 2>&1
tail -2 $R/gemv-13.log; gzip -f $R/gemv-13/probe_gemv.json; pack
SURVEY_ARGS="--cases $R/survey41.json --budget 110 --name survey-41-256" timeout -k 5 130 scripts/gpu-run $R survey | g 3; pack
