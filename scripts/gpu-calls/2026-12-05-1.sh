#!/usr/bin/env bash
# 2026-12-05 call 1 (issue 5): the constant-trip fold (loops.CONST, checker_gate --fold-const) gated on the 21
# TorchInductor kernels, every configuration, as 2026-12-04e gated the corpus (--grid --adversarial, 5 wide draws,
# 15 workers) at the walk's default limits; then the planted fault mutant-fold-const (the fold keyed without its
# update, copied tree, the rule on) on inductor_cross_entropy_t8_red2.
#   bash scripts/gpu-calls/2026-12-05-1.sh      (carry [".whl"])
set -u
O=$OUT; S=/tmp/o1; R=$S/r; mkdir -p $R
pack() { tar czf $O/call1.tgz -C $S r; }
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1
K=$(PYTHONPATH=src python3 -c "import sys; sys.path.insert(0, 'benchmarks'); from corpus import SPECS; print(','.join(k for k in SPECS if k.startswith('inductor_')))")
CHECKER_ARGS="--jobs 15 --draws 5 --adversarial --grid --fold-const --budget 260 --kernels $K" \
  timeout -k 5 300 scripts/gpu-run $R/const checker | tail -3
pack
timeout -k 5 200 scripts/gpu-run $R mutant-fold-const | tail -5
pack
