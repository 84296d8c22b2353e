#!/usr/bin/env bash
# 2026-12-02 pinned, call 2 (~2.4 min; issue 4), prepared on the CPU, not yet run: the suite's invariance check of
# gemm_colsum under BITORDER_PINNED_CONVERT_SHUFFLE=1 alone (2026-12-02-pinned.sh's third step wrote nothing in
# its 55 s: the check is 72 configurations x pinned/free at the check sizes plus the pinned ones rebuilt at the
# timing sizes). --budget 1: the check runs to its end (8 shares start at once), the timing is skipped
# (not_timed), so pinned.json holds the invariance, the CPU-reference equality and the free patterns.
set -u
R=$OUT/r; mkdir -p $R
export PYTHONPATH=$PWD/src PYTHONUNBUFFERED=1 BITORDER_PINNED_LAYOUTS=1
BITORDER_PINNED_CONVERT_SHUFFLE=1 timeout -k 5 140 python3 benchmarks/pinned_suite.py --out $R/suite-shuffle --jobs 15 \
  --rep 3 --budget 1 --kernels gemm_colsum 2>&1 | grep -v Warn | tail -6
tar czf $OUT/results.tgz -C $OUT r
