#!/usr/bin/env bash
# 2026-12-05e call 2 (issue 5): the 50 mutated programs the checker merges with their originals (2026-12-05e's CPU
# sweeps, benchmarks/results/2026-12-05e-checker-cpu) and 18 add->sub controls, each run both ways through Triton's
# ir_override on the gate's draws (5 wide, 8 adversarial): a merged pair whose bytes differ is a wrong merge, a control
# whose bytes do not differ did not run its mutant. Any sm_90 card (no H200 started this session: twelve
# calls between 13:42 and 14:56 UTC, six failed starts and six refused during the back-off); about 3 min.
#   bash scripts/gpu-calls/2026-12-05e-2.sh      (carry [".whl"])
set -u
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name --format=csv,noheader > $R/device.txt 2>&1
PYTHONPATH=src timeout -k 5 400 python3 benchmarks/checker_mutants.py run --cases benchmarks/checker_mutants_cases.json.gz \
  --out $R/mutants --draws 5 > $R/mutants.log 2>&1; tail -1 $R/mutants.log
