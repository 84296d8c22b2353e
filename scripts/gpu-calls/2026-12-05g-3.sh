#!/usr/bin/env bash
# 2026-12-05g call 3 (issue 5): `bitorder check DIR` on TorchInductor's cache after torch.compile ran (and
# autotuned) capture_inductor.py's model pieces at 8 and 512 tokens; each class's benched variants must return
# identical bytes (benchmarks/inductor_cache_check.py); then its planted fault (the cache reader giving every
# variant of a kernel name the first folder's PTX, copied tree), which must fail. Any sm_90 card; about 4 min.
#   bash scripts/gpu-calls/2026-12-05g-3.sh      (carry [".whl"], benchmarks/results moved out)
set -u
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name --format=csv,noheader > $R/device.txt 2>&1
timeout -k 5 270 scripts/gpu-run $R inductor-cache > $R/gpu-run.log 2>&1
echo "gpu-run exit $?" >> $R/gpu-run.log
timeout -k 5 270 scripts/gpu-run $R mutant-inductor-cache >> $R/gpu-run.log 2>&1
echo "gpu-run exit $?" >> $R/gpu-run.log
grep -E "^=== |exit code|wrong_merges|imports|Error|error" $R/gpu-run.log | cut -c1-700 | tail -24
