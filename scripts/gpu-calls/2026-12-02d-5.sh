#!/usr/bin/env bash
# Prepared 2026-12-02 for a next session (issue 6, ~8 min), part 3 of 3: the fp8 gate the issue asks for (10,000 fuzz
# shapes per (use_fast_accum, out_dtype) pair with the realistic layers: 63,312 cases, three draws each) on one tree
# and one seed, split over three calls by --slice (42208: here); the three JSONs add up. SEED: the same in all three.
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the wheel once
FP8_GATE_ARGS="--jobs 14 --budget 420 --retry-oom 20 --seed ${SEED:?} --slice 42208: --name gate_fp8-3" \
  timeout -k 10 470 scripts/gpu-run $R fp8gate | grep -v '^ ' | grep -v UserWarning | tail -12; pack
