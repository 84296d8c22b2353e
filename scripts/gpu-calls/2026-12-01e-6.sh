#!/usr/bin/env bash
# 2026-12-01e call 6 (~3 min; issue 3): the SIMT paths timed against cuBLAS on the final tree's census (40 calls a
# path, CUDA-graph medians, each call also compared byte for byte): bench_simt.py.
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the wheel once
PYTHONPATH=src:/tmp/site timeout -k 5 $(( ${B1:-95} + 25 )) python3 benchmarks/bench_simt.py --out $R \
  --census benchmarks/results/2026-12-01e-gate/census-final.json.gz --per-path 40 --budget ${B1:-95} 2>&1 | grep -v UserWarning | tail -12; pack
