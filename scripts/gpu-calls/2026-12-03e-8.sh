#!/usr/bin/env bash
# 2026-12-03e call 8 (issue 5, ~5 min, H200; what the session's last 583 device seconds allow: --budget 220): the rest of the corpus (every kernel but the 21 Inductor ones) on this
# tree with the session's rules (one-hot sums, grid_x, NaN payloads), every configuration (unsampled), --grid,
# 5 wide + 6 adversarial draws: soundness (0 wrong merges) and the partition against the truth on all draws.
#   bash scripts/gpu-calls/2026-12-03e-8.sh      (carry [".whl"])
set -u
O=$OUT; S=/tmp/o8; R=$S/r; mkdir -p $R
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the wheel once
K=$(PYTHONPATH=src python3 -c "import sys; sys.path.insert(0, 'benchmarks'); from corpus import SPECS; print(','.join(k for k in SPECS if not k.startswith('inductor_')))")
CHECKER_ARGS="--jobs 15 --draws 5 --adversarial --grid --budget 220 --kernels $K" \
  timeout -k 5 280 scripts/gpu-run $R/corpus checker | tail -3
tar czf $O/call8.tgz -C $S r
