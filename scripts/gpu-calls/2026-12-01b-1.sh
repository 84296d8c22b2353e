#!/usr/bin/env bash
# 2026-12-01b call 1 (~9 min; issue 3): where the gate's fallbacks come from (census: every case of the
# 2026-12-01 whole gate's seed planned, none run), the small-M SIMT candidates (gemmSN NN and TN, magma)
# on fresh shapes (sn-check), designed gemv probes of algorithm-13 answers without a rule, and the
# planted fault of the gemmSN NN and magma kernels (mutant-small).
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the wheel once
export BITORDER_UNVERIFIED=1
CENSUS_ARGS="--seed 20261218 --budget 120" timeout -k 5 150 scripts/gpu-run $R census | grep -v UserWarning | tail -40; pack
SN_ARGS="--shapes 20000 --budget 100 --seed 20261230" timeout -k 5 130 scripts/gpu-run $R sn-check | grep -v UserWarning | tail -8; pack
GEMV_ARGS="--want unknown --per-key 2 --draws 3000 --budget 80 --seed 20261231" \
  timeout -k 5 125 scripts/gpu-run $R gemv-probe | grep -v UserWarning | tail -25; pack
SN_ARGS="--shapes 4000 --budget 45 --seed 20261230" timeout -k 5 80 scripts/gpu-run $R mutant-small | grep -v UserWarning | tail -6; pack
