#!/usr/bin/env bash
# 2026-12-05f call 2 (issue 5): check.prune(jobs=4) inside a real autotuner on the GPU (CUDA live, spawned compile
# workers): the kept configurations return identical bytes (benchmarks/prune_gpu_check.py); then prune's compile
# time on the device machine's CPUs, one corpus kernel's whole space (softmax_bwd_c1024_f16, 100 configurations),
# jobs 1 against jobs 8, each with fresh caches. Any sm_90 card; about 4 min.
#   bash scripts/gpu-calls/2026-12-05f-2.sh      (carry [".whl"])
set -u
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name --format=csv,noheader > $R/device.txt 2>&1
nproc > $R/nproc.txt
PYTHONPATH=src timeout -k 5 200 python3 benchmarks/prune_gpu_check.py $R/prune_gpu.json > $R/prune_gpu.log 2>&1
echo "prune_gpu exit $?" >> $R/prune_gpu.log; tail -2 $R/prune_gpu.log
for j in 1 8; do
  BITORDER_CACHE_DIR=$(mktemp -d) TRITON_CACHE_DIR=$(mktemp -d) PYTHONPATH=src timeout -k 5 250 \
    python3 benchmarks/prune_gpu_check.py --time softmax_bwd_c1024_f16 $j >> $R/prune_time.log 2>&1
done
cat $R/prune_time.log | tail -2
