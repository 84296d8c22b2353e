#!/usr/bin/env bash
# 2026-12-01g call 5 (~2 min; issue 3): F.linear N = 1 over nvjet answers (torch's addmm, beta = 1) as read on the
# Call 4 found the plain chain dropped a bias_out epilogue (launch.run passed only bias_acc): fixed, rerun here.
# CPU from call 3's survey (unsplit: bias after the rounding; split: in the fp32 sum) on fresh draws of the 63 addmm
# fallbacks, then its planted fault (the placements swapped) on the same cases.
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
g() { grep -v '^ ' | grep -v UserWarning | grep -v '^\[' | tail -${1:-6}; }
C=benchmarks/results/2026-12-01g-cases
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the wheel once
GATE_ARGS="--jobs 12 --budget 35 --retry-oom 5 --seed 20261640 --rerun $C/addmm-cases.json --name addmm-ground" \
  timeout -k 5 50 scripts/gpu-run $R gate | g 6; cp $R/gate.log $R/addmm-ground.log; pack
GATE_ARGS="--jobs 12 --budget 30 --retry-oom 5 --seed 20261641 --rerun $C/addmm-cases.json" \
  timeout -k 5 45 scripts/gpu-run $R mutant-addmm | g 4; pack
