#!/usr/bin/env bash
# Prepared 2026-12-02b for a next session (issue 3, ~7.5 min): records for the CPU fit of what fresh censuses still send
# to cuBLAS (benchmarks/results/2026-12-02b-gpu/call4/left.json: algorithm 42 / 41 with a run-time split past one K
# tile, F.linear N = 1 over gemv option 59 bf16, option 53 fp16 with 14,383 outputs):
#  (1) 300 shapes near each (benchmarks/neighbors.py), their census (plans only): which get the same answers;
#  (2) a designed gemv probe (`bitorder probe gemv --cases`) of their algorithm-13 answers (up to 12 calls a key);
#  (3) a survey (kernels, answers, walks, sampled bits) of their run-time split answers (41 / 42);
#  (4) the ground of the algorithm-41 candidate (unsplit past one K tile) on the near shapes' 41 answers, and
#      its planted fault (mutant-entries: the unsplit chain as mma.sync k8), which must fail.
# Then on the CPU: `bitorder probe gemv-fit`, the 41 / 42 fit (benchmarks/results/2026-12-02-gpu/call3 has the
# first nine records); then a ground call as 2026-12-02b-3.sh did.
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
g() { grep -v '^ ' | grep -v UserWarning | grep -v '^\[' | tail -${1:-6}; }
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the wheel once
export PYTHONPATH=src:/tmp/site
python3 benchmarks/neighbors.py $R/near.json benchmarks/results/2026-12-02b-gpu/call4/left.json --per 300 --seed 20261810
CENSUS_ARGS="--rerun $R/near.json --budget 40 --name census-left" timeout -k 5 60 scripts/gpu-run $R census | g 1
python3 benchmarks/fallback_cases.py $R/left13.json $R/census-left.json --algo 13 --skip-reason drops --survey
python3 benchmarks/fallback_cases.py $R/left4142.json $R/census-left.json --algo 41,42 --skip-reason drops --survey
python3 benchmarks/fallback_cases.py $R/ground41.json $R/census-left.json --algo 41
gzip -f $R/census-left.json; pack
# algorithm 41 past one K tile read as unsplit (profile.SEGMENT_K_UNSPLIT_CANDIDATES, BITORDER_UNVERIFIED=1 only):
# its ground on the near shapes' algorithm-41 answers, three fresh draws each
BITORDER_UNVERIFIED=1 GATE_ARGS="--jobs 12 --budget 60 --retry-oom 5 --seed ${SEED:-20261811} --rerun $R/ground41.json --name ground41" \
  timeout -k 5 80 scripts/gpu-run $R gate | g 6; cp $R/gate.log $R/ground41.log; pack
# its planted fault: mutant-entries reads sm90-xmma (the unsplit chain 41 plans as) as mma.sync k8 steps
BITORDER_UNVERIFIED=1 GATE_ARGS="--jobs 12 --budget 40 --retry-oom 5 --seed 20261812 --rerun $R/ground41.json" \
  timeout -k 5 70 scripts/gpu-run $R mutant-entries | g 4; pack
timeout -k 5 120 python3 -m bitorder probe gemv --cases $R/left13.json --out $R/gemv-probe --budget 100 > $R/gemv-probe.log 2>&1
tail -3 $R/gemv-probe.log; gzip -f $R/gemv-probe/probe_gemv.json; pack
SURVEY_ARGS="--cases $R/left4142.json --budget 90 --name survey-41-42" timeout -k 5 105 scripts/gpu-run $R survey | g 3; pack
