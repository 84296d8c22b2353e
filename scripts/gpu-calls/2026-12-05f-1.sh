#!/usr/bin/env bash
# 2026-12-05f call 1 (issue 5): the mutant check as 207d3b5 refactored it (checker_gate.gate_draws, run_config with
# ir_override passed through, prune.compile_config with options), which no GPU had run: checker-mutants, then its
# planted fault (must fail); then 2026-12-05e call 5's swap cases that its deadline cut (its 12 controls, run first,
# and 10 swaps: --resume with that call's rows, copied to 2026-12-05f-1-ran.json, as results/ is not carried).
# Any sm_90 card; about 5 min.
#   bash scripts/gpu-calls/2026-12-05f-1.sh      (carry [".whl"])
set -u
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name --format=csv,noheader > $R/device.txt 2>&1
timeout -k 5 200 scripts/gpu-run $R checker-mutants | tail -1
timeout -k 5 200 scripts/gpu-run $R mutant-checker-mutants | tail -3
PYTHONPATH=src timeout -k 5 150 python3 benchmarks/checker_mutants.py run --cases benchmarks/checker_swaps_cases.json.gz \
  --out $R/swaps-rest --draws 5 --resume scripts/gpu-calls/2026-12-05f-1-ran.json > $R/swaps-rest.log 2>&1
tail -1 $R/swaps-rest.log
