#!/usr/bin/env bash
# 2026-12-03c call 2 (issue 3, ~8 min, H200): the ground of the 2026-12-03c candidates, then third 1 of the whole
# fp16/bf16 gate on the tree the ground leaves. (a) Census of 590 designed cases
# (benchmarks/results/2026-12-03c-cases/ground.json, benchmarks/design_regions.py --per 40 --segk 150: 40 in each of
# the 11 candidate batched-dot regions read from call 1's records, 150 algorithm-42 shapes in the layouts nn, tn, tt);
# (b) the calls it sent to cuBLAS rerun on fresh draws under BITORDER_UNVERIFIED=1 (seed 20262121); (c) the planted
# faults over the same list: mutant-dots-band (seed 20262122) and mutant-segk-layout (seed 20262123); (d)
# verify-candidates.py flips, in this copy, every candidate with 3 identical ground calls and its kind's fault
# caught; (e) third 1 of the whole gate, fresh seed 20262130. Call 3 repeats (d) from /tmp/o2 and runs thirds 2-3.
set -u
O=$OUT; S=/tmp/o2; R=$S/r; mkdir -p $R
pack() { tar czf $O/call2.tgz -C $S r; }
g() { grep -v '^ ' | grep -v UserWarning | grep -v '^\[' | tail -${1:-6}; }
D=benchmarks/results/2026-12-03c-cases
export PYTHONPATH=src:/tmp/site
CENSUS_ARGS="--rerun $D/ground.json --budget 30 --name census-ground" timeout -k 5 60 scripts/gpu-run $R census | g 1
python3 benchmarks/fallback_cases.py $R/cases-ground.json $R/census-ground.json
gzip -kf $R/census-ground.json; pack
GATE_ARGS="--jobs 14 --budget 75 --retry-oom 5 --seed 20262121 --rerun $R/cases-ground.json --name ground-band" \
  BITORDER_UNVERIFIED=1 timeout -k 5 95 scripts/gpu-run $R gate | g 6; cp $R/gate.log $R/ground-band.log; pack
GATE_ARGS="--jobs 14 --budget 40 --retry-oom 5 --seed 20262122 --rerun $R/cases-ground.json" \
  BITORDER_UNVERIFIED=1 timeout -k 5 60 scripts/gpu-run $R mutant-dots-band | g 3
GATE_ARGS="--jobs 14 --budget 40 --retry-oom 5 --seed 20262123 --rerun $R/cases-ground.json" \
  BITORDER_UNVERIFIED=1 timeout -k 5 60 scripts/gpu-run $R mutant-segk-layout | g 3; pack
python3 - $R/mutant-dots-band/mutant_dots_band.json $R/mutant-segk-layout/mutant_segk_layout.json $R/mutant-both.json <<'PY'
import json, os, sys
both = {"n_mismatches": 0, "mismatches": []}
for p in sys.argv[1:3]:
    d = json.load(open(p)) if os.path.exists(p) else {"n_mismatches": 0, "mismatches": []}
    both["n_mismatches"] += d["n_mismatches"]; both["mismatches"] += d["mismatches"]
    print(f"[faults] {os.path.basename(p)}: {d['n_mismatches']} differ")
json.dump(both, open(sys.argv[3], "w"))
PY
python3 scripts/gpu-calls/verify-candidates.py $R/census-ground.json $R/ground-band.json $R/mutant-both.json > $R/verify.txt
cat $R/verify.txt; grep -c "\"verified\": false" src/bitorder/cublas/profiles/sm90-cublas13.1-simt.json; grep -n "\"layouts\"" src/bitorder/cublas/segment_k.py; pack
OUT=$O/gate1 STAGE=/tmp/o2/gate THIRD=1 SEED=20262130 SKIP_REPORT=1 bash scripts/gpu-calls/next-issue3-gate.sh
