#!/usr/bin/env bash
# 2026-12-04e call 3 (issue 5): the whole-corpus gate on one tree, part 3 of 3: the 21 TorchInductor kernels, every
# configuration, same options and the walk's limits raised (--steps 200000 --nodes 20000000), plus any kernel call 1
# or 2 left unreached (NOT_REACHED, comma list, may be empty).
#   NOT_REACHED=... bash scripts/gpu-calls/2026-12-04e-3.sh      (carry [".whl"])
set -u
O=$OUT; S=/tmp/o3; R=$S/r; mkdir -p $R
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1
K=$(PYTHONPATH=src python3 -c "import sys; sys.path.insert(0, 'benchmarks'); from corpus import SPECS; print(','.join(k for k in SPECS if k.startswith('inductor_')))")
CHECKER_ARGS="--jobs 15 --draws 5 --adversarial --grid --steps 200000 --nodes 20000000 --budget 300 --kernels $K${NOT_REACHED:+,$NOT_REACHED}" \
  timeout -k 5 340 scripts/gpu-run $R/inductor checker | tail -3
tar czf $O/call3.tgz -C $S r
