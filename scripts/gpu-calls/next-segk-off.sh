#!/usr/bin/env bash
# Prepared 2026-12-02h for a next session (issue 3, ~3 min, H200): the ground of segment_k.UNSPLIT (algorithm 41,
# 64x64, split_k -1 with segment-K off: the plain chain, bias in fp32 before the rounding; read from 5 records of call
# 6). 400 designed fp16 F.linear-with-bias shapes inside its region (all four layouts: nt and nn may answer other
# kernels), their census, those answered 41 64x64 split_k -1 rerun under BITORDER_UNVERIFIED=1, then mutant-segk-off
# (the bias after the rounding) over the same list. SEED: fresh.
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
g() { grep -v '^ ' | grep -v UserWarning | grep -v '^\[' | tail -${1:-6}; }
D=benchmarks/results/2026-12-02h-cases
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the wheel once
export PYTHONPATH=src:/tmp/site
CENSUS_ARGS="--rerun $D/unsplit-design.json --budget 60 --name census-unsplit" timeout -k 5 80 scripts/gpu-run $R census | g 1
python3 benchmarks/fallback_cases.py $R/cases-unsplit.json $R/census-unsplit.json --algo 41
gzip -kf $R/census-unsplit.json; pack
export BITORDER_UNVERIFIED=1
GATE_ARGS="--jobs 12 --budget 90 --retry-oom 5 --seed ${SEED:?} --rerun $R/cases-unsplit.json --name ground-unsplit" \
  timeout -k 5 110 scripts/gpu-run $R gate | g 6; cp $R/gate.log $R/ground-unsplit.log; pack
GATE_ARGS="--jobs 12 --budget 60 --retry-oom 5 --seed $((SEED+1)) --rerun $R/cases-unsplit.json" \
  timeout -k 5 80 scripts/gpu-run $R mutant-segk-off | g 4; pack
