#!/usr/bin/env bash
# 2026-12-01d call 5 (~4 min): the profile entries' planted fault again with sm90-xmma as mma.sync k8 steps (call 4's
# wgmma k8 was refused by GEMMDesc: errors, not wrong bits); then SIMT speed (issue 3): the gemv kernel with 8
# steps a loop trip and gemmSN's rows in one launch: a share of the gate's gemv and sn grounds (fresh seeds,
# the defaults), then bench_simt on the call-3 census.
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the wheel once
GATE_ARGS="--jobs 8 --budget 30 --seed 20261313 --rerun benchmarks/results/2026-12-01d-gate/entries-cases.json" \
  timeout -k 5 60 scripts/gpu-run $R mutant-entries | grep -v '^ ' | grep -v UserWarning | grep -v '^\[' | tail -5; pack
GATE_ARGS="--only gemv --jobs 12 --budget ${B1:-35} --seed 20261315 --name gate-gemv" timeout -k 5 $(( ${B1:-35} + 30 )) scripts/gpu-run $R gate \
  | grep -v '^ ' | grep -v UserWarning | grep -v '^\[' | tail -4; cp $R/gate.log $R/gate-gemv.log; pack
GATE_ARGS="--only sn --jobs 12 --budget ${B2:-30} --seed 20261316 --name gate-sn" timeout -k 5 $(( ${B2:-30} + 30 )) scripts/gpu-run $R gate \
  | grep -v '^ ' | grep -v UserWarning | grep -v '^\[' | tail -4; cp $R/gate.log $R/gate-sn.log; pack
PYTHONPATH=src:/tmp/site timeout -k 5 $(( ${B3:-30} + 30 )) python3 benchmarks/bench_simt.py --out $R \
  --census benchmarks/results/2026-12-01d-bench/census-20261312.json --per-path 12 --budget ${B3:-30} 2>&1 | grep -v UserWarning | tail -8; pack
