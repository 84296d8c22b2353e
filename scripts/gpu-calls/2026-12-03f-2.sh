#!/usr/bin/env bash
# 2026-12-03f call 2 (issue 5, ~8 min, H200): the gate's second part: the pinned kernels and their fp16/bf16 twins
# (3,960 configurations, --grid, 5 wide + 6 adversarial draws), then the planted fault mutant-checker (tree keys that
# forget their operands, copied tree) on two of the new twins: it must show wrong merges.
#   bash scripts/gpu-calls/2026-12-03f-2.sh      (carry [".whl"])
set -u
O=$OUT; S=/tmp/o2; R=$S/r; mkdir -p $R
pack() { tar czf $O/call2.tgz -C $S r; }
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1
K=$(PYTHONPATH=src python3 -c "import sys; sys.path.insert(0, 'benchmarks'); from corpus import SPECS; print(','.join(k for k in SPECS if k.startswith('pinned_')))")
CHECKER_ARGS="--jobs 15 --draws 5 --adversarial --grid --budget 280 --kernels $K" \
  timeout -k 5 330 scripts/gpu-run $R/pinned checker | tail -3
pack
MUTANT_KERNELS=pinned_row_sum_f16,row_sum_fp16_bf16 timeout -k 5 150 scripts/gpu-run $R mutant-checker | tail -5
pack
