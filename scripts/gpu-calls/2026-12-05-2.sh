#!/usr/bin/env bash
# 2026-12-05 call 2 (issue 5): the constant-trip fold on the 21 TorchInductor kernels with the walk's limits raised
# (--steps 200000 --nodes 20000000), as 2026-12-04e call 3 ran them, so the whole-corpus union can take them; then
# mutant-fold-const with adversarial draws.
#   bash scripts/gpu-calls/2026-12-05-2.sh      (carry [".whl"])
set -u
O=$OUT; S=/tmp/o2; R=$S/r; mkdir -p $R
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1
K=$(PYTHONPATH=src python3 -c "import sys; sys.path.insert(0, 'benchmarks'); from corpus import SPECS; print(','.join(k for k in SPECS if k.startswith('inductor_')))")
CHECKER_ARGS="--jobs 15 --draws 5 --adversarial --grid --fold-const --steps 200000 --nodes 20000000 --budget 300 --kernels $K" \
  timeout -k 5 340 scripts/gpu-run $R/const_raised checker | tail -3
tar czf $O/call2.tgz -C $S r
# then the planted fault again, on adversarial draws (call 1 drew 2 wide ones, on which t8_red2's configurations of
# a grid all agree: no merge could be wrong there)
timeout -k 5 200 scripts/gpu-run $S/r mutant-fold-const | tail -5
tar czf $O/call2.tgz -C $S r
