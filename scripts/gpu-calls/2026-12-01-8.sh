#!/usr/bin/env bash
# 2026-12-01 call 8 (~2.5 min; issue 3): gemmSN TN's path on fresh shapes where it runs (sn_check: M 2..16,
# B transposed, three draws per planned shape), the session's last device time.
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the wheel once
SN_ARGS="--shapes 20000 --budget 70 --seed 20261203" timeout -k 5 100 scripts/gpu-run $R sn-check | grep -v UserWarning | tail -8; pack
