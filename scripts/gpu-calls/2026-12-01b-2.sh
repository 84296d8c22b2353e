#!/usr/bin/env bash
# 2026-12-01b call 2 (~7 min; issue 3): the small-M SIMT candidates again on fresh shapes, now with gemmSN's
# 2-lane NN kernel bounded (K <= 290), batches (bmm) of gemmSN and magma, and algorithm 14 with one output side
# 2..64 ("dots"); the gemv rule table with call 1's new options on fresh gemv shapes (gemv-check --rule);
# where cuBLASLt adds F.linear's bias on its M = 1 gemv path (ltbias-probe: answers, kernels, acc/out fits).
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the wheel once
SN_ARGS="--shapes 20000 --budget 120 --seed 20261233" BITORDER_UNVERIFIED=1 \
  timeout -k 5 150 scripts/gpu-run $R sn-check | grep -v UserWarning | tail -12; pack
GEMV_CHECK_ARGS="--rule 3000 --budget 100 --seed 20261234" timeout -k 5 130 scripts/gpu-run $R gemv-check | grep -v UserWarning | tail -40; pack
LTBIAS_ARGS="--shapes 3000 --budget 90 --seed 20261235" timeout -k 5 120 scripts/gpu-run $R ltbias-probe | grep -v UserWarning | tail -4; pack
