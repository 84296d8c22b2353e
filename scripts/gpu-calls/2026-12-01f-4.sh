#!/usr/bin/env bash
# 2026-12-01f call 4 (~5 min; issue 3): a designed gemv probe of the algorithm-13 fallbacks left in call 1's gemv
# census (up to 3 a key, 6 of option 10's batched dots spread over K; fitted on the CPU: probe_gemv.py --fit), the
# census of the final tree on call 2's gate (where its 45,120 cases go), and the SIMT paths timed on it.
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the wheel once
GEMV_ARGS="--cases benchmarks/results/2026-12-01f-ground/probe-cases.json --budget 70" \
  timeout -k 5 100 scripts/gpu-run $R gemv-probe | grep -v UserWarning | tail -3; pack
CENSUS_ARGS="--seed 20261510 --budget 60 --name census-final" timeout -k 5 90 scripts/gpu-run $R census \
  | grep -v UserWarning | tail -2; pack
PYTHONPATH=src:/tmp/site timeout -k 5 $(( ${B1:-90} + 25 )) python3 benchmarks/bench_simt.py --out $R \
  --census $R/census-final.json --per-path 40 --budget ${B1:-90} 2>&1 | grep -v UserWarning | tail -10; pack
