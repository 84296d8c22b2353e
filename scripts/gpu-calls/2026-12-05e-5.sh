#!/usr/bin/env bash
# 2026-12-05e call 5 (issue 5): adjacent independent instructions swapped (2026-12-05e's CPU sweep swaps.py: 2,058
# swaps, every one merged by the checker), a sample of 287 (every st.shared pair, every pair mixing a memory access
# with another instruction, 50 st.global pairs, 60 others) and 12 add->sub controls, classed live and run against
# their originals through ir_override on the gate's 13 draws: a merged pair whose bytes differ is a wrong merge.
# Cases stop starting after 330 s. Any sm_90 card; about 5 min.
#   bash scripts/gpu-calls/2026-12-05e-5.sh      (carry [".whl"])
set -u
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name --format=csv,noheader > $R/device.txt 2>&1
PYTHONPATH=src timeout -k 5 420 python3 benchmarks/checker_mutants.py run --cases benchmarks/checker_swaps_cases.json.gz \
  --out $R/swaps --draws 5 --deadline 330 > $R/swaps.log 2>&1; tail -1 $R/swaps.log
