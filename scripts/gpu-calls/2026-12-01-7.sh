#!/usr/bin/env bash
# 2026-12-01 call 7 (~4 min; issue 3): the gemmSN TN candidate (algorithm 11, B transposed: a gemv per row in
# the probed order) on the gate's sn ground (2-D, M 2..16, B transposed; fresh seed), with BITORDER_UNVERIFIED=1;
# then its planted fault (lanes added neighbours first) on the same cases.
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the wheel once
export BITORDER_UNVERIFIED=1
GATE_ARGS="--only sn --jobs 10 --budget 120 --retry-oom 20 --seed 20261221 --name gate-sn" \
  timeout -k 5 170 scripts/gpu-run $R gate | grep -v '^ ' | grep -v UserWarning | tail -6; pack
GATE_ARGS="--only sn --jobs 10 --budget 50 --retry-oom 10 --seed 20261221" \
  timeout -k 5 90 scripts/gpu-run $R mutant-sn | grep -v '^ ' | grep -v UserWarning | tail -4; echo "mutant-sn rc ${PIPESTATUS[0]}"; pack
