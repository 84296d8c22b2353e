#!/usr/bin/env bash
# 2026-12-02 call 1 (~6 min; issue 3): (a) 2026-12-01g call 5, never run: F.linear N = 1 over unsplit nvjet
# answers (bias after the rounding, BITORDER_UNVERIFIED=1: g-5 forgot to set it) on fresh draws of the 63 addmm
# fallbacks, then its planted fault; (b) the candidates' ground: a fresh 4x census of the default tree, its
# fallbacks (cuBLAS's own tail drops left out) with the 12-01g gate's and censuses' rerun under
# BITORDER_UNVERIFIED=1 on fresh draws; (c) is algorithm 35 deterministic? the same call 4 times.
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
g() { grep -v '^ ' | grep -v UserWarning | grep -v '^\[' | tail -${1:-6}; }
C=benchmarks/results/2026-12-01g-cases; D=benchmarks/results/2026-12-02-cases
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the wheel once
export PYTHONPATH=src:/tmp/site
BITORDER_UNVERIFIED=1 GATE_ARGS="--jobs 12 --budget 35 --retry-oom 5 --seed 20261640 --rerun $C/addmm-cases.json --name addmm-ground" \
  timeout -k 5 50 scripts/gpu-run $R gate | g 6; cp $R/gate.log $R/addmm-ground.log; pack
BITORDER_UNVERIFIED=1 GATE_ARGS="--jobs 12 --budget 30 --retry-oom 5 --seed 20261641 --rerun $C/addmm-cases.json" \
  timeout -k 5 45 scripts/gpu-run $R mutant-addmm | g 4; pack
timeout -k 5 45 python3 benchmarks/determinism.py $D/algo35.json --out $R/det35 --repeat 4 --budget 35 2>&1 | g 10; pack
CENSUS_ARGS="--fuzz 80000 --bias 8000 --seed 20261701 --budget 100 --name census-4x" \
  timeout -k 5 115 scripts/gpu-run $R census | g 1; pack
python3 benchmarks/fallback_cases.py $R/cands.json $R/census-4x.json --skip-reason 'drops the last'
python3 - $R/cands.json $D/left-12-01g.json <<'PY'
import json, sys
a = json.load(open(sys.argv[1]))["not_reached_cases"]; b = json.load(open(sys.argv[2]))["not_reached_cases"]
seen = {json.dumps(c, sort_keys=True) for c in a}
a += [c for c in b if json.dumps(c, sort_keys=True) not in seen]
json.dump({"not_reached_cases": a}, open(sys.argv[1], "w")); print(f"[cands] {len(a)} cases")
PY
BITORDER_UNVERIFIED=1 GATE_ARGS="--jobs 12 --budget 70 --retry-oom 10 --seed 20261702 --rerun $R/cands.json --name cands" \
  timeout -k 5 95 scripts/gpu-run $R gate | g 8; cp $R/gate.log $R/cands.log; pack
