#!/usr/bin/env bash
# 2026-12-04c calls 1-3 ran next-fp8-cost.sh unchanged: `PART=1 bash scripts/gpu-calls/next-fp8-cost.sh` on tree
# 30c2ac7, then `PART=2 SEED=4120700 ...` and `PART=3 ...` on 1338f56 (benchmarks/results/2026-12-04c-gpu).
exec bash "$(dirname "$0")/next-fp8-cost.sh" "$@"
