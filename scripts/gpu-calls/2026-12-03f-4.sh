#!/usr/bin/env bash
# 2026-12-03f call 4 (issue 5, ~7 min, H200): the gate's fourth part, on the same checker (src/ unchanged since
# calls 1-3): the kernels the corpus gained after call 3: the row kernels at 128, 1024 and 2048 columns, the scans at
# 64 and 1024 (with their dtype twins), and swiglu and gelu_tanh with their new block sizes (re-gated whole):
# --grid, 5 wide + 6 adversarial draws, 15 workers. With calls 1-3 this gates all 20,248 configurations.
#   bash scripts/gpu-calls/2026-12-03f-4.sh      (carry [".whl"])
set -u
O=$OUT; S=/tmp/o4; R=$S/r; mkdir -p $R
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1
K=$(PYTHONPATH=src python3 -c "
import re, sys; sys.path.insert(0, 'benchmarks'); from corpus import SPECS
print(','.join(k for k in SPECS if re.search(r'_c(64|128|1024|2048)(_|$)', k) or k.startswith(('swiglu', 'gelu_tanh'))))")
CHECKER_ARGS="--jobs 15 --draws 5 --adversarial --grid --budget 430 --kernels $K" \
  timeout -k 5 500 scripts/gpu-run $R/gate checker | tail -3
tar czf $O/call4.tgz -C $S r
