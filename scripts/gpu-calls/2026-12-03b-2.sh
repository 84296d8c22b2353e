#!/usr/bin/env bash
# 2026-12-03b call 2 (issue 3, ~7 min, H200): when call 1 verified option 10's long batched dots, the same flip in
# this copy (call 1's marker; if /tmp did not persist, call 1's census and ground again on fresh draws, seed
# 20261953), then the whole gate's thirds 2 and 3 (seed 20261960, as third 1). When call 1 did not verify them: the fp8
# gate's third 3 (issue 6, seed 20261820) instead, the gate waiting for a tree that plans those dots.
set -u
O=$OUT; S=/tmp/o2; R=$S/r; M=/tmp/bitorder-2026-12-03b; mkdir -p $R $M
pack() { tar czf $O/call2.tgz -C $S r; }
g() { grep -v '^ ' | grep -v UserWarning | grep -v '^\[' | tail -${1:-6}; }
D=benchmarks/results/2026-12-03b-cases
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1
export PYTHONPATH=src:/tmp/site
echo "markers: $(ls $M 2>/dev/null | tr '\n' ' ')" | tee $R/markers.txt
if [ ! -e $M/call1-ran ]; then           # /tmp did not persist: decide again from a fresh ground
  CENSUS_ARGS="--rerun $D/dots-long.json --budget 45 --name census-dots" timeout -k 5 60 scripts/gpu-run $R census | g 1
  python3 benchmarks/fallback_cases.py $R/cases-dots.json $R/census-dots.json --algo 13 --options 10
  GATE_ARGS="--jobs 12 --budget 60 --retry-oom 5 --seed 20261953 --rerun $R/cases-dots.json --name ground-dots" \
    BITORDER_UNVERIFIED=1 timeout -k 5 80 scripts/gpu-run $R gate | g 6; cp $R/gate.log $R/ground-dots.log
  python3 scripts/gpu-calls/verify-dots-long.py $R/ground-dots.json > $R/verify.txt && touch $M/dots-verified
  touch $M/call1-ran; cat $R/verify.txt; pack
elif [ -e $M/dots-verified ]; then
  python3 scripts/gpu-calls/verify-dots-long.py --flip-only > $R/verify.txt; cat $R/verify.txt
fi
if [ -e $M/dots-verified ]; then
  for t in 2 3; do
    OUT=$O/gate$t STAGE=$S/gate$t THIRD=$t SEED=20261960 SKIP_REPORT=1 GATE_BUDGET=220 bash scripts/gpu-calls/next-issue3-gate.sh
  done
else
  touch $M/fp8-ran; OUT=$O/fp8 STAGE=$S/fp8 THIRD=3 SEED=20261820 bash scripts/gpu-calls/next-fp8-gate.sh
fi
pack
