#!/usr/bin/env bash
# 2026-12-01 call 4 (~5 min; issue 3): the dot kernel (algorithm 14) again, designed experiments at the
# K where call 1's draws left the model (even K from 10,000 up) and around them; then the 80 large
# gate cases calls 2-3 did not reach (same switches as the gate: rule + k1).
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the wheel once
KS=4096,5000,6000,8192,8194,10000,10001,16384,32768,63488,65536,131072,200000
SIMT_ARGS="--budget 100 --no-simt --dot-ops mm --dot-k $KS --design-k $KS" timeout -k 10 150 scripts/gpu-run $R simt-probe | grep -v UserWarning | tail -30; pack
export BITORDER_UNVERIFIED=1 BITORDER_GEMV_RULE=1
GATE_ARGS="--rerun benchmarks/results/2026-12-01-gate/gate-rerun2.json --jobs 3 --budget 230 --retry-oom 20 --name gate-rerun3 --seed 20261218" \
  timeout -k 5 280 scripts/gpu-run $R gate | grep -v '^ ' | grep -v UserWarning | tail -6; pack
