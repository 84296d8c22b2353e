#!/usr/bin/env bash
# 2026-12-03b call 1 (issue 3, ~7 min, H200). The 2026-12-03 gate's one non-defect fallback was an option-10 fp16
# batched dot at K 382, past every entry (fp16 to K 254, bf16 to K 364). (a) Census of 421 designed dots
# (benchmarks/results/2026-12-03b-cases/dots-long.json: fp16 K 255-4096, bf16 K 365-4096 and 35-94, batches 2-80);
# (b) the designed gemv probe of those answered option 10 (records for `bitorder probe gemv-fit`); (c) their ground on
# fresh draws under BITORDER_UNVERIFIED=1 against the candidates (16 lanes, cap 64: the neighbouring entries' reading),
# then mutant-dots-long (8 lanes) over the same list; (d) when ground and fault hold (verify-dots-long.py), the
# candidates' flag turns true in this copy, and the whole gate's third 1 runs on it (fresh seed 20261960); otherwise
# segment_k.WIDE's ground. Markers under /tmp/bitorder-2026-12-03b tell calls 2-3 what happened (when /tmp persists).
set -u
O=$OUT; S=/tmp/o1; R=$S/r; M=/tmp/bitorder-2026-12-03b; mkdir -p $R $M
pack() { tar czf $O/dots.tgz -C $S r; }
g() { grep -v '^ ' | grep -v UserWarning | grep -v '^\[' | tail -${1:-6}; }
D=benchmarks/results/2026-12-03b-cases
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the wheel once
export PYTHONPATH=src:/tmp/site
CENSUS_ARGS="--rerun $D/dots-long.json --budget 45 --name census-dots" timeout -k 5 60 scripts/gpu-run $R census | g 1
python3 benchmarks/fallback_cases.py $R/survey-dots.json $R/census-dots.json --algo 13 --options 10 --survey
python3 benchmarks/fallback_cases.py $R/cases-dots.json $R/census-dots.json --algo 13 --options 10
gzip -kf $R/census-dots.json; pack
timeout -k 5 50 python3 -m bitorder probe gemv --cases $R/survey-dots.json --out $R/gemv-dots --budget 40 > $R/gemv-dots.log 2>&1
tail -2 $R/gemv-dots.log; gzip -f $R/gemv-dots/probe_gemv.json; pack
GATE_ARGS="--jobs 12 --budget 60 --retry-oom 5 --seed 20261951 --rerun $R/cases-dots.json --name ground-dots" \
  BITORDER_UNVERIFIED=1 timeout -k 5 80 scripts/gpu-run $R gate | g 6; cp $R/gate.log $R/ground-dots.log; pack
GATE_ARGS="--jobs 12 --budget 45 --retry-oom 5 --seed 20261952 --rerun $R/cases-dots.json" \
  BITORDER_UNVERIFIED=1 timeout -k 5 65 scripts/gpu-run $R mutant-dots-long | g 4; pack
touch $M/call1-ran
python3 scripts/gpu-calls/verify-dots-long.py $R/ground-dots.json $R/mutant-dots-long/mutant_dots_long.json > $R/verify.txt
rc=$?; cat $R/verify.txt; pack
if [ $rc -eq 0 ]; then
  touch $M/dots-verified
  OUT=$O/gate1 STAGE=/tmp/o1/gate THIRD=1 SEED=20261960 SKIP_REPORT=1 bash scripts/gpu-calls/next-issue3-gate.sh
else
  OUT=$O/wide STAGE=/tmp/o1/wide SEED=20261970 bash scripts/gpu-calls/next-wide41.sh
fi
