#!/usr/bin/env bash
# 2026-12-01e call 4 (~8 min; issue 3): the gemv kernel with lanes not a power of two (NLANES; the gemv ground on
# fresh draws, defaults: the kernel changed after call 2's gate), the ground check of two CPU-read candidates
# under BITORDER_UNVERIFIED=1 (gemvNSP past its bound with 26/24/20/12/16 lanes; option 75 bf16 split calls with
# 2 or 3 outputs) over the 2026-12-01e census's algorithm-13 fallbacks and its planted fault (mutant-nsp), then
# the whole gate's census on this tree (same seed: where its 45,120 cases go now), speed on the realistic set
# (bench_gemm.py).
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the wheel once
GATE_ARGS="--only gemv --jobs 12 --budget 40 --seed 20261420 --name gate-gemv" timeout -k 5 75 scripts/gpu-run $R gate \
  | grep -v '^ ' | grep -v UserWarning | grep -v '^\[' | tail -4; cp $R/gate.log $R/gate-gemv.log; pack
BITORDER_UNVERIFIED=1 GATE_ARGS="--jobs 12 --budget 40 --retry-oom 5 --seed 20261421 --rerun benchmarks/results/2026-12-01e-ground/cand-cases.json --name cand2" \
  timeout -k 5 75 scripts/gpu-run $R gate | grep -v '^ ' | grep -v UserWarning | grep -v '^\[' | tail -6; cp $R/gate.log $R/cand2.log; pack
BITORDER_UNVERIFIED=1 GATE_ARGS="--jobs 12 --budget 30 --seed 20261422 --rerun benchmarks/results/2026-12-01e-ground/cand-cases.json" \
  timeout -k 5 70 scripts/gpu-run $R mutant-nsp | grep -v '^ ' | grep -v UserWarning | grep -v '^\[' | tail -5; pack
CENSUS_ARGS="--seed 20261410 --budget 60 --name census-20261410" timeout -k 5 80 scripts/gpu-run $R census | grep -v UserWarning | tail -2; pack
BENCH_ARGS="--budget 100" timeout -k 5 140 scripts/gpu-run $R bench | grep -v UserWarning | tail -16; pack
