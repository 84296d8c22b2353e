#!/usr/bin/env bash
# 2026-12-02 second session, call 1 (issue 3, ~8 min): the two candidate entries' ground on fresh draws, under
# BITORDER_UNVERIFIED=1, each with its planted fault, and algorithm 35's bias-placement probe.
#  (1) algorithm 35 (algo35-xmma-splitk-strided): benchmarks/results/2026-12-02-cases/algo35.json + 60 of the
#      algorithm-35 fallbacks of 2026-12-02 call 2's census, three draws each;
#  (2) the designed bias-placement probe (benchmarks/probe_algo35_bias.py) on 12 of those shapes;
#  (3) algorithm 21's -wide candidate (algo21-s16816-splitk-serial-wide): the 61 algorithm-21 calls near the
#      fallbacks (benchmarks/results/2026-12-02-gpu/call2/nb21.json);
#  (4) planted faults on copied trees: mutant-algo35 (tiles of 32) over (1)'s ground, mutant-k-major (the
#      K-major span granule 64 read as 8) over (3)'s ground; each must fail.
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
g() { grep -v '^ ' | grep -v UserWarning | grep -v '^\[' | tail -${1:-6}; }
D=benchmarks/results/2026-12-02-cases
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the wheel once
export PYTHONPATH=src:/tmp/site
python3 benchmarks/fallback_cases.py $R/a35-census.json benchmarks/results/2026-12-02-gpu/call2/census-nb.json.gz --algo 35
python3 - $R/a35-census.json $D/algo35.json $R/a35.json <<'PY'
import json, random, sys
c = json.load(open(sys.argv[1]))["not_reached_cases"]; random.Random(35).shuffle(c)
own = json.load(open(sys.argv[2]))["not_reached_cases"]
json.dump({"not_reached_cases": own + c[:60]}, open(sys.argv[3], "w"))
print(f"[algo35] {len(own)} + {len(c[:60])} of {len(c)} census cases")
PY
rm $R/a35-census.json
BITORDER_UNVERIFIED=1 GATE_ARGS="--jobs 8 --budget 110 --retry-oom 5 --seed 20261735 --rerun $R/a35.json --name a35-ground" \
  timeout -k 5 140 scripts/gpu-run $R gate | g 8; cp $R/gate.log $R/a35-ground.log; pack
BITORDER_UNVERIFIED=1 timeout -k 5 90 python3 benchmarks/probe_algo35_bias.py --cases $R/a35.json --out $R --n 12 2>&1 | tail -14; pack
BITORDER_UNVERIFIED=1 GATE_ARGS="--jobs 8 --budget 60 --retry-oom 5 --seed 20261721 --rerun benchmarks/results/2026-12-02-gpu/call2/nb21.json --name a21w-ground" \
  timeout -k 5 85 scripts/gpu-run $R gate | g 8; cp $R/gate.log $R/a21w-ground.log; pack
BITORDER_UNVERIFIED=1 GATE_ARGS="--jobs 8 --budget 60 --retry-oom 5 --seed 20261736 --rerun $R/a35.json" \
  timeout -k 5 95 scripts/gpu-run $R mutant-algo35 | g 6; pack
BITORDER_UNVERIFIED=1 GATE_ARGS="--jobs 8 --budget 45 --retry-oom 5 --seed 20261722 --rerun benchmarks/results/2026-12-02-gpu/call2/nb21.json" \
  timeout -k 5 80 scripts/gpu-run $R mutant-k-major | g 6; pack
rm -rf $R
