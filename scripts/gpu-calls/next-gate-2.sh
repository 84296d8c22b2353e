#!/usr/bin/env bash
# Prepared 2026-12-02 for a next session (issue 3, ~3 min): the rest of next-gate-1.sh's gate (its heaviest cases, at
# 6 workers: RERUN names that call's gate.json, SEED its seed), then a K scan near the three algorithm-21 scheme-4 calls
# (census, their scheme-4 answers rerun under BITORDER_UNVERIFIED=1: the candidate algo21-splitk-out-partials).
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
g() { grep -v '^ ' | grep -v UserWarning | grep -v '^\[' | tail -${1:-6}; }
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1
export PYTHONPATH=src:/tmp/site
GATE_ARGS="--jobs 6 --budget ${B:-120} --retry-oom 25 --seed ${SEED:?} --rerun ${RERUN:?} --name gate-rest" \
  timeout -k 5 $(( ${B:-120} + 35 )) scripts/gpu-run $R gate | g 10; cp $R/gate.log $R/gate-rest.log; pack
python3 - $R/s4.json <<'PY'
import json, sys
# scheme-4 calls seen: 2026-12-02 call 2 and the 2026-12-01g gate; K scanned +-2%, M and N kept
seeds = [("bf16", 64, 264, 349879, "tn"), ("bf16", 24, 112, 250864, "tt")]
cases = [dict(op="mm", dtype=d, m=m, n=n, k=k + dk, batch=1, layout=l, group="fuzz-deep")
         for d, m, n, k, l in seeds for dk in range(-k // 50, k // 50, 13)]
json.dump({"not_reached_cases": cases}, open(sys.argv[1], "w")); print(f"[s4] {len(cases)} shapes")
PY
CENSUS_ARGS="--rerun $R/s4.json --budget 30 --name census-s4" timeout -k 5 45 scripts/gpu-run $R census | g 1
python3 benchmarks/fallback_cases.py $R/s4-cases.json $R/census-s4.json --algo 21; pack
BITORDER_UNVERIFIED=1 GATE_ARGS="--jobs 12 --budget 40 --retry-oom 5 --seed $(( SEED + 1 )) --rerun $R/s4-cases.json --name s4-ground" \
  timeout -k 5 55 scripts/gpu-run $R gate | g 6; cp $R/gate.log $R/s4-ground.log; pack
