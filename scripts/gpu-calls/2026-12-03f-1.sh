#!/usr/bin/env bash
# 2026-12-03f call 1 (issue 5, ~8 min, H200): the checker's soundness gate over the grown corpus, first part: every
# kernel that is neither pinned_* nor inductor_* (the hand-written reductions, normalizations, scans, elementwise,
# GEMMs, attention and their fp16/bf16/fp32 twins, 16 warps included): 5,188 configurations, --grid, 5 wide + 6
# adversarial (narrow, NaN, signed-zero) draws, 15 workers. Kernels the budget leaves are listed (not_reached).
#   bash scripts/gpu-calls/2026-12-03f-1.sh      (carry [".whl"])
set -u
O=$OUT; S=/tmp/o1; R=$S/r; mkdir -p $R
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the wheel once
K=$(PYTHONPATH=src python3 -c "import sys; sys.path.insert(0, 'benchmarks'); from corpus import SPECS; print(','.join(k for k in SPECS if not k.startswith(('inductor_', 'pinned_'))))")
CHECKER_ARGS="--jobs 15 --draws 5 --adversarial --grid --budget 450 --kernels $K" \
  timeout -k 5 520 scripts/gpu-run $R/gate checker | tail -3
tar czf $O/call1.tgz -C $S r
