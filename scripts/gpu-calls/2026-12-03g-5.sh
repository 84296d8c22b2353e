#!/usr/bin/env bash
# 2026-12-03g call 5 (issue 5, ~4 min, H200): call 1's gate part again (no probe) on the tree of calls 2-4 (a598f12:
# the abs rule removed, the bf16 fold keyed with its all-NaN value), so all four parts are one checker tree.
#   bash scripts/gpu-calls/2026-12-03g-5.sh      (carry [".whl"])
set -u
O=$OUT; S=/tmp/g5; R=$S/r; mkdir -p $R
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1
K=$(PYTHONPATH=src python3 -c "
import re, sys; sys.path.insert(0, 'benchmarks'); from corpus import SPECS
print(','.join(k for k in SPECS if not k.startswith(('inductor_', 'pinned_'))
               and not (re.search(r'_c(64|128|1024|2048)(_|$)', k) or k.startswith(('swiglu', 'gelu_tanh')))))")
CHECKER_ARGS="--jobs 15 --draws 5 --adversarial --grid --budget 230 --kernels $K" \
  timeout -k 5 260 scripts/gpu-run $R/gate checker | tail -2
tar czf $O/call5.tgz -C $S r
