#!/usr/bin/env bash
# 2026-12-03e call 6 (issue 5, ~1.5 min, H200): call 5 found rotary's configurations byte-identical on every draw in
# one process: its cos/sin tables came from torch's unseeded global generator, so the gate's workers each drew other
# tables (false "wrong merges"). Tables now seeded (benchmarks/corpus/misc.py); rotary's whole space gated again
# (48 configurations, --grid, 11 draws, 15 workers).
#   bash scripts/gpu-calls/2026-12-03e-6.sh      (carry [".whl"])
set -u
O=$OUT; S=/tmp/o6; R=$S/r; mkdir -p $R
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the wheel once
CHECKER_ARGS="--jobs 15 --draws 5 --adversarial --grid --kernels rotary" timeout -k 5 120 scripts/gpu-run $R/rotary checker | tail -2
tar czf $O/call6.tgz -C $S r
