#!/usr/bin/env bash
# 2026-12-01d call 3 (~8 min; issue 3): the last cases of call 2's whole gate (same tree's src), the planted
# fault of the strided dots (mutant-strided over the gemv ground), then speed: a census on this tree and
# the SIMT paths timed against cuBLAS on its calls (bench_simt.py), and the realistic set (bench_gemm.py).
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the wheel once
GATE_ARGS="--jobs 6 --budget 150 --retry-oom 10 --seed 20261310 --rerun benchmarks/results/2026-12-01d-gate/gate-rerun.json --name gate-rerun2" \
  timeout -k 5 190 scripts/gpu-run $R gate | grep -v '^ ' | grep -v UserWarning | grep -v '^\[' | tail -6; pack
GATE_ARGS="--only gemv --jobs 12 --budget 60 --seed 20261311" timeout -k 5 100 scripts/gpu-run $R mutant-strided \
  | grep -v '^ ' | grep -v UserWarning | grep -v '^\[' | tail -8; pack
CENSUS_ARGS="--seed 20261312 --budget 60 --name census-20261312" timeout -k 5 80 scripts/gpu-run $R census | grep -v UserWarning | tail -2
PYTHONPATH=src:/tmp/site timeout -k 5 110 python3 benchmarks/bench_simt.py --out $R --census $R/census-20261312.json --budget 80 2>&1 \
  | grep -v UserWarning | tail -10; pack
BENCH_ARGS="--budget 90" timeout -k 5 130 scripts/gpu-run $R bench | grep -v UserWarning | tail -16; pack
