#!/usr/bin/env bash
# 2026-12-03g call 3 (issue 5, ~8 min, H200): the gate's third part on the same tree: the 21 TorchInductor kernels,
# same options and --steps 200000 --nodes 20000000.
#   bash scripts/gpu-calls/2026-12-03g-3.sh      (carry [".whl"])
set -u
O=$OUT; S=/tmp/g3; R=$S/r; mkdir -p $R
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1
CHECKER_ARGS="--jobs 15 --draws 5 --adversarial --grid --steps 200000 --nodes 20000000 --budget 300 --kernels inductor_" \
  timeout -k 5 340 scripts/gpu-run $R/inductor checker | tail -3
tar czf $O/call3.tgz -C $S r
