#!/usr/bin/env bash
# 2026-12-05f call 7 (issue 5): prune(jobs=N) now compiles AND classes in its spawned workers (call 2 timed a
# version that classed in the calling process: 38.0 -> 29.5 s). The GPU check again on this code, then the same
# corpus space pruned with 1, 8 and 16 processes, fresh caches each. Any sm_90 card; about 3 min.
#   bash scripts/gpu-calls/2026-12-05f-7.sh      (carry [".whl"])
set -u
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name --format=csv,noheader > $R/device.txt 2>&1
nproc > $R/nproc.txt
PYTHONPATH=src timeout -k 5 120 python3 benchmarks/prune_gpu_check.py $R/prune_gpu.json > $R/prune_gpu.log 2>&1
echo "prune_gpu exit $?" >> $R/prune_gpu.log; tail -2 $R/prune_gpu.log
for j in 1 8 16; do
  BITORDER_CACHE_DIR=$(mktemp -d) TRITON_CACHE_DIR=$(mktemp -d) PYTHONPATH=src timeout -k 5 150 \
    python3 benchmarks/prune_gpu_check.py --time softmax_bwd_c1024_f16 $j >> $R/prune_time.log 2>&1
done
cat $R/prune_time.log | tail -3
