#!/usr/bin/env bash
# 2026-12-03e call 2 (issue 5, ~2 min, H200): call 1's wrong merge. inductor_cross_entropy_t8_red0, grid (16,):
# the checker (grid_x 16) put XBLOCK 2 R0_BLOCK 512 num_warps 4 and num_warps 8 in one class; the 11 draws told
# them apart. Which draw, which rows, which bits, and the PTX the JIT built for both (checker_pair.py).
#   bash scripts/gpu-calls/2026-12-03e-2.sh      (carry [".whl"])
set -u
O=$OUT; S=/tmp/o2; R=$S/r; mkdir -p $R
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the wheel once
timeout -k 5 120 python3 benchmarks/checker_pair.py --out $R/pair --kernel inductor_cross_entropy_t8_red0 --configs 20 22
python3 - <<'PY'
import sys; sys.path.insert(0, "benchmarks")
from corpus import SPECS
from checker_gate import _configs
print([str(c) for c in (_configs(SPECS["inductor_cross_entropy_t8_red0"], None, 7)[i] for i in (20, 22))])
PY
tar czf $O/call2.tgz -C $S r
