#!/usr/bin/env bash
# 2026-12-04e call 1 (issue 5): the whole-corpus soundness gate on ONE checker tree with every rule on (the loop fold,
# magic division, byte parts: all default-on since 2026-12-04d), part 1 of 3: every kernel that is neither pinned_*
# nor inductor_* (hand-written reductions, normalizations, scans, elementwise, GEMMs and attention unbound, and all
# their dtype/width twins), every configuration, --grid, 5 wide + 6 adversarial draws, 15 workers. Kernels the budget
# leaves are listed in checker.json (not_reached) and run in a later call.
#   bash scripts/gpu-calls/2026-12-04e-1.sh      (carry [".whl"])
set -u
O=$OUT; S=/tmp/o1; R=$S/r; mkdir -p $R
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the nvmath wheel once
K=$(PYTHONPATH=src python3 -c "import sys; sys.path.insert(0, 'benchmarks'); from corpus import SPECS; print(','.join(k for k in SPECS if not k.startswith(('inductor_', 'pinned_'))))")
CHECKER_ARGS="--jobs 15 --draws 5 --adversarial --grid --budget 480 --kernels $K" \
  timeout -k 5 530 scripts/gpu-run $R/rest checker | tail -3
rm -f $R/rest/*.png.tmp; tar czf $O/call1.tgz -C $S r
