#!/usr/bin/env bash
# 2026-12-03b call 6 (issue 3, ~3 min with the last 312 device seconds, H200): the ground of the 19 batched-dot
# candidates read from call 5's records (next-dots-map.sh with a 398-case design), no report (gpu-run installs the
# wheel itself).
SEED=20261991 STAGE=/tmp/o6 OUT=$OUT/dots SKIP_REPORT=1 bash scripts/gpu-calls/next-dots-map.sh
