#!/usr/bin/env bash
# 2026-12-05f call 6 (issue 5), the same H200: the mutant check's planted fault (sub hashed as add and taken to
# commute, copied tree), which must fail.
#   bash scripts/gpu-calls/2026-12-05f-6.sh      (carry [".whl"])
mkdir -p $OUT/r && nvidia-smi --query-gpu=name --format=csv,noheader > $OUT/r/device.txt
timeout -k 5 200 scripts/gpu-run $OUT/r mutant-checker-mutants | tail -3
