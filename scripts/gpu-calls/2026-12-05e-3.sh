#!/usr/bin/env bash
# 2026-12-05e call 3 (issue 5): benchmarks/checker_mutants.py now classes each pair with the checker it imports (call
# 2 took the CPU sweeps' verdicts as given; the live checker reproduces all 68 on the CPU): the mutant check again,
# then its planted fault (sub hashed as add and taken to commute, copied tree: the checker merges the 18 add->sub
# controls, 17 of which returned other bytes in call 2), which must fail. Any sm_90 card; about 2 min.
#   bash scripts/gpu-calls/2026-12-05e-3.sh      (carry [".whl"])
set -u
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name --format=csv,noheader > $R/device.txt 2>&1
timeout -k 5 250 scripts/gpu-run $R checker-mutants | tail -1
timeout -k 5 250 scripts/gpu-run $R mutant-checker-mutants | tail -3
