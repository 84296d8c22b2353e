#!/usr/bin/env bash
# 2026-12-03g call 4 (issue 5, ~9 min, H200): the gate's fourth part on the same tree: the row kernels at 128, 1024
# and 2048 columns, the scans at 64 and 1024, with their twins, and swiglu / gelu_tanh; same options as call 1.
#   bash scripts/gpu-calls/2026-12-03g-4.sh      (carry [".whl"])
set -u
O=$OUT; S=/tmp/g4; R=$S/r; mkdir -p $R
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1
K=$(PYTHONPATH=src python3 -c "
import re, sys; sys.path.insert(0, 'benchmarks'); from corpus import SPECS
print(','.join(k for k in SPECS if re.search(r'_c(64|128|1024|2048)(_|$)', k) or k.startswith(('swiglu', 'gelu_tanh'))))")
CHECKER_ARGS="--jobs 15 --draws 5 --adversarial --grid --budget 470 --kernels $K" \
  timeout -k 5 530 scripts/gpu-run $R/gate checker | tail -3
tar czf $O/call4.tgz -C $S r
