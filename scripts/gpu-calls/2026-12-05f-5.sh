#!/usr/bin/env bash
# 2026-12-05f call 5 (issue 5), the same H200: the whole swap case file (287 merged swaps of adjacent independent
# instructions and 12 controls, controls first), which the H100 ran in two parts (2026-12-05e call 5, 2026-12-05f
# call 1). Cases stop starting after 400 s.
#   bash scripts/gpu-calls/2026-12-05f-5.sh      (carry [".whl"])
mkdir -p $OUT/r && nvidia-smi --query-gpu=name --format=csv,noheader > $OUT/r/device.txt
PYTHONPATH=src timeout -k 5 440 python3 benchmarks/checker_mutants.py run --cases benchmarks/checker_swaps_cases.json.gz \
  --out $OUT/r/swaps --draws 5 --deadline 400 > $OUT/r/swaps.log 2>&1; tail -1 $OUT/r/swaps.log
