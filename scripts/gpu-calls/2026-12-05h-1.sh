#!/usr/bin/env bash
# 2026-12-05h call 1 (issue 5): `bitorder check DIR` on TorchInductor's cache, now classing each Inductor kernel's
# variants over the grids Inductor launches them on (cdiv(xnumel, XBLOCK), read off the kernel's module and TTGIR),
# so variants of other XBLOCK can share a class. inductor-cache-wide sets max_autotune_pointwise (pointwise kernels
# benched over several XBLOCK too); inductor-cache is the default autotuning as in 2026-12-05g call 3. Each class's
# benched variants must return identical bytes, each launched over its own grid by Inductor's launcher. Any sm_90
# card; about 8 min.
#   bash scripts/gpu-calls/2026-12-05h-1.sh      (carry [".whl"], benchmarks/results moved out)
set -u
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name --format=csv,noheader > $R/device.txt 2>&1
timeout -k 5 300 scripts/gpu-run $R inductor-cache-wide > $R/wide.log 2>&1
echo "gpu-run exit $?" >> $R/wide.log
timeout -k 5 250 scripts/gpu-run $R inductor-cache > $R/default.log 2>&1
echo "gpu-run exit $?" >> $R/default.log
for f in wide default; do grep -E "^=== |exit code|wrong_merges|Error|error" $R/$f.log | cut -c1-900 | tail -8; done
