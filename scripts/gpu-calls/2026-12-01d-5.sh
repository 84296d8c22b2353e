#!/usr/bin/env bash
# 2026-12-01d call 5 (~3 min; issue 3, SIMT speed): the gemv kernel with 8 steps a loop trip (loads issued
# together, each chain in order) and gemmSN's rows in one launch (gemv_rows): a share of the gate's gemv
# and sn grounds (fresh seed, the defaults), then bench_simt on the call-3 census.
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the wheel once
GATE_ARGS="--only gemv --jobs 12 --budget ${B1:-45} --seed 20261315 --name gate-gemv" timeout -k 5 $(( ${B1:-45} + 30 )) scripts/gpu-run $R gate \
  | grep -v '^ ' | grep -v UserWarning | grep -v '^\[' | tail -4; cp $R/gate.log $R/gate-gemv.log; pack
GATE_ARGS="--only sn --jobs 12 --budget ${B2:-40} --seed 20261316 --name gate-sn" timeout -k 5 $(( ${B2:-40} + 30 )) scripts/gpu-run $R gate \
  | grep -v '^ ' | grep -v UserWarning | grep -v '^\[' | tail -4; cp $R/gate.log $R/gate-sn.log; pack
PYTHONPATH=src:/tmp/site timeout -k 5 $(( ${B3:-40} + 30 )) python3 benchmarks/bench_simt.py --out $R \
  --census benchmarks/results/2026-12-01d-bench/census-20261312.json --per-path 15 --budget ${B3:-40} 2>&1 | grep -v UserWarning | tail -8; pack
