#!/usr/bin/env bash
# 2026-12-01g call 1 (~9 min; issue 3): the census of the final tree on the last whole gate's cases (seed
# 20261510: where its 45,120 cases go now); the 2026-12-01f probe's rules as defaults on another fresh gemv
# census (f-6's check, never run); F.linear N = 1 over an unsplit tensor-core answer (the addmm candidate,
# BITORDER_UNVERIFIED=1) on the 63 addmm fallbacks of the last gate and two censuses; a survey of algorithm
# 35/41 fallbacks (for `bitorder probe fit`); then the two speed switches timed with and without and gated on
# their ground: BITORDER_ROWS_BATCHED=1 (bench_simt --paths rows, gate --only snb) and BITORDER_GEMV_WARPS=auto
# (--paths simt, gate --only gemv).
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
g() { grep -v '^ ' | grep -v UserWarning | grep -v '^\[' | tail -${1:-6}; }
C=benchmarks/results/2026-12-01g-cases
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the wheel once
export PYTHONPATH=src:/tmp/site
CENSUS_ARGS="--seed 20261510 --budget 35 --name census-final" timeout -k 5 50 scripts/gpu-run $R census | g 1; pack
BITORDER_UNVERIFIED=1 GATE_ARGS="--jobs 12 --budget 35 --retry-oom 10 --seed 20261612 --rerun $C/addmm-cases.json --name addmm" \
  timeout -k 5 50 scripts/gpu-run $R gate | g 6; cp $R/gate.log $R/addmm.log; pack
CENSUS_ARGS="--only gemv --fuzz 400000 --bias 16000 --seed 20261610 --budget 25 --name census-gemv" \
  timeout -k 5 40 scripts/gpu-run $R census | g 1
python3 benchmarks/fallback_cases.py $R/again-cases.json $R/census-gemv.json --paths simt,dots \
  --options 2,10,32,33,40,42,48,52,63,69,74,83,86,88,89,95,97,102,111; pack
GATE_ARGS="--jobs 12 --budget 30 --retry-oom 10 --seed 20261611 --rerun $R/again-cases.json --name again" \
  timeout -k 5 45 scripts/gpu-run $R gate | g 6; cp $R/gate.log $R/again.log; pack
SURVEY_ARGS="--cases $C/survey-35-41.json --budget 50 --name survey-35-41" timeout -k 5 65 scripts/gpu-run $R survey | g 3; pack
for v in 0 1; do
  BITORDER_ROWS_BATCHED=$v timeout -k 5 45 python3 benchmarks/bench_simt.py --out $R/rows$v --census $R/census-final.json \
    --paths rows --per-path 30 --budget 30 2>&1 | g 4; pack
done
for v in "" auto; do
  BITORDER_GEMV_WARPS=$v timeout -k 5 45 python3 benchmarks/bench_simt.py --out $R/simt-warps${v:-4} --census $R/census-final.json \
    --paths simt --per-path 30 --budget 30 2>&1 | g 4; pack
done
BITORDER_ROWS_BATCHED=1 GATE_ARGS="--jobs 12 --budget 30 --retry-oom 10 --seed 20261613 --only snb --name rows-batched" \
  timeout -k 5 45 scripts/gpu-run $R gate | g 5; cp $R/gate.log $R/rows-batched.log; pack
BITORDER_GEMV_WARPS=auto GATE_ARGS="--jobs 12 --budget 35 --retry-oom 10 --seed 20261614 --only gemv --name gemv-warps" \
  timeout -k 5 50 scripts/gpu-run $R gate | g 5; cp $R/gate.log $R/gemv-warps.log; pack
