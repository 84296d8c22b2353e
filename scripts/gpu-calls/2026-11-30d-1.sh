#!/usr/bin/env bash
# Next session, call 1 (~9.5 min): the default tiles against BITORDER_TILES=persistent on the
# realistic set (CUDA graphs; the choice for call 2's gate is written to /tmp/keep/tiles), the
# row-wise fp8 epilogue probe, and the twin gate (fp16/bf16 2,000 each + fp8, NaN written
# canonically now, JSON written whatever stops it).
set -u
R=$OUT/r; mkdir -p $R /tmp/keep
pack() { tar czf $OUT/results.tgz -C $OUT r; }
timeout 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the wheel once
mkdir -p $R/default $R/persistent
BENCH_ARGS="--budget 80" timeout 110 scripts/gpu-run $R/default bench | tail -3; pack
BITORDER_TILES=persistent BENCH_ARGS="--budget 80" timeout 110 scripts/gpu-run $R/persistent bench | tail -3; pack
if python3 benchmarks/compare_bench.py $R/default/bench.json $R/persistent/bench.json --json $R/compare.json; then
  echo persistent > /tmp/keep/tiles; else echo waves > /tmp/keep/tiles; fi; pack
timeout 40 scripts/gpu-run $R rowwise | tail -12; pack
python3 -c "import json; print(json.load(open('$R/probe_rowwise.json'))['summary']['env'])" > /tmp/keep/rowwise 2>/dev/null
echo "row-wise candidate for call 3's fp8 gate: $(cat /tmp/keep/rowwise 2>/dev/null)"
TWIN_ARGS="--count 2000 --fp8 900 --budget 230" timeout 260 scripts/gpu-run $R twin | tail -2; pack
