#!/usr/bin/env bash
# 2026-12-04e call 2 (issue 5): the whole-corpus gate on one tree, part 2 of 3: the pinned kernels and their fp16/bf16
# twins, every configuration, same options as call 1; then the planted fault mutant-checker (tree keys that forget
# their operands, copied tree) on pinned_loop_sum_bf16 and row_sum_fp16_bf16: the gate must fail.
#   bash scripts/gpu-calls/2026-12-04e-2.sh      (carry [".whl"])
set -u
O=$OUT; S=/tmp/o2; R=$S/r; mkdir -p $R
pack() { tar czf $O/call2.tgz -C $S r; }
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1
K=$(PYTHONPATH=src python3 -c "import sys; sys.path.insert(0, 'benchmarks'); from corpus import SPECS; print(','.join(k for k in SPECS if k.startswith('pinned_')))")
CHECKER_ARGS="--jobs 15 --draws 5 --adversarial --grid --budget 300 --kernels $K" \
  timeout -k 5 340 scripts/gpu-run $R/pinned checker | tail -3
pack
MUTANT_KERNELS=pinned_loop_sum_bf16,row_sum_fp16_bf16 timeout -k 5 150 scripts/gpu-run $R mutant-checker | tail -5
pack
