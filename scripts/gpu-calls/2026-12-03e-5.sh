#!/usr/bin/env bash
# 2026-12-03e call 5 (issue 5, ~1 min, H200): call 4's wrong merges, all in `rotary` (an elementwise kernel: one
# checker class a grid, five true classes on the adversarial draws). checker_pair.py on BS 1: num_warps 1 against 8
# (configs 0, 13) and two num_stages twins (4, 6: same num_warps 2, stages 1 and 3).
#   bash scripts/gpu-calls/2026-12-03e-5.sh      (carry [".whl"])
set -u
export PYTHONPATH=$PWD/src
O=$OUT; S=/tmp/o5; R=$S/r; mkdir -p $R
timeout -k 5 60 python3 benchmarks/checker_pair.py --out $R/pair-0-13 --kernel rotary --configs 0 13
timeout -k 5 60 python3 benchmarks/checker_pair.py --out $R/pair-4-6 --kernel rotary --configs 4 6
tar czf $O/call5.tgz -C $S r
