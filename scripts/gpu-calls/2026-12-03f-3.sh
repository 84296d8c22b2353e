#!/usr/bin/env bash
# 2026-12-03f call 3 (issue 5, ~6 min, H200): the gate's third part: the 21 TorchInductor kernels with 16 warps added
# (960 configurations, --grid, the walk's limits raised as on 2026-12-03e, 5 wide + 6 adversarial draws).
#   bash scripts/gpu-calls/2026-12-03f-3.sh      (carry [".whl"])
set -u
O=$OUT; S=/tmp/o3; R=$S/r; mkdir -p $R
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1
CHECKER_ARGS="--jobs 15 --draws 5 --adversarial --grid --steps 200000 --nodes 20000000 --budget 380 --kernels inductor_" \
  timeout -k 5 440 scripts/gpu-run $R/inductor checker | tail -3
tar czf $O/call3.tgz -C $S r
