#!/usr/bin/env bash
# 2026-12-03g call 2 (issue 5, ~7 min, H200): the gate's second part on the same tree as call 1: the pinned kernels
# and their fp16/bf16 twins, same options; then mutant-checker (tree keys that forget their operands, copied tree) on
# row_max_f16 and row_absmax_c128_bf16, the kernels the 16-bit joins changed most.
#   bash scripts/gpu-calls/2026-12-03g-2.sh      (carry [".whl"])
set -u
O=$OUT; S=/tmp/g2; R=$S/r; mkdir -p $R
pack() { tar czf $O/call2.tgz -C $S r; }
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1
K=$(PYTHONPATH=src python3 -c "import sys; sys.path.insert(0, 'benchmarks'); from corpus import SPECS; print(','.join(k for k in SPECS if k.startswith('pinned_')))")
CHECKER_ARGS="--jobs 15 --draws 5 --adversarial --grid --budget 300 --kernels $K" \
  timeout -k 5 350 scripts/gpu-run $R/pinned checker | tail -3
pack
MUTANT_KERNELS=row_max_f16,row_absmax_c128_bf16 timeout -k 5 150 scripts/gpu-run $R mutant-checker | tail -5
pack
