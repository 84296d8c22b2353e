#!/usr/bin/env bash
# 2026-12-01g call 3 (~9 min; issue 3): the rest of call 2's gate (its heaviest cases: RERUN names call 2's
# gate-rerun.json, carried in the tree), the run-time-split rule on fresh draws and its planted fault, the by-row
# batched gemmSN's planted fault, then a survey of the addmm fallbacks (torch's beta = 1 path) for the CPU.
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
g() { grep -v '^ ' | grep -v UserWarning | grep -v '^\[' | tail -${1:-6}; }
C=benchmarks/results/2026-12-01g-cases
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the wheel once
GATE_ARGS="--jobs 6 --budget ${B:-300} --retry-oom 25 --seed 20261620 --rerun ${RERUN:?} --name gate-rest" \
  timeout -k 5 $(( ${B:-300} + 35 )) scripts/gpu-run $R gate | g 10; cp $R/gate.log $R/gate-rest.log; pack
GATE_ARGS="--jobs 4 --budget 25 --retry-oom 5 --seed 20261621 --rerun $C/segment-k-cases.json --name segment-k" \
  timeout -k 5 40 scripts/gpu-run $R gate | g 4; cp $R/gate.log $R/segment-k.log; pack
GATE_ARGS="--jobs 4 --budget 25 --retry-oom 5 --seed 20261622 --rerun $C/segment-k-cases.json" \
  timeout -k 5 45 scripts/gpu-run $R mutant-tile | g 4; pack
GATE_ARGS="--jobs 12 --budget 30 --retry-oom 5 --seed 20261623 --only snb" \
  timeout -k 5 50 scripts/gpu-run $R mutant-rows | g 4; pack
python3 -c "import json; d=json.load(open('$C/addmm-cases.json')); json.dump({'mismatches': [{'case': c} for c in d['not_reached_cases']]}, open('$R/addmm-survey.json', 'w'))"
[ "${S:-50}" -gt 0 ] && SURVEY_ARGS="--cases $R/addmm-survey.json --budget ${S:-50} --name survey-addmm" timeout -k 5 $(( ${S:-50} + 15 )) scripts/gpu-run $R survey | g 3; pack
