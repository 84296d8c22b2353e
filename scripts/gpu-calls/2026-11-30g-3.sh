#!/usr/bin/env bash
# 2026-11-30, seventh session, call 3 (fired as next-3.sh) (~9 min): call 2's gate cases still not reached (if the machine stayed
# warm); issue 3's planted fault on the default tiles; issue 4's other six pinned kernels.
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
timeout -k 5 30 scripts/gpu-run $R report > /dev/null 2>&1
if [ -f /tmp/keep/gate-rerun.json ] && python3 -c "import json,sys; sys.exit(json.load(open('/tmp/keep/gate-rerun.json'))['n_not_reached'] == 0)"; then
  GATE_ARGS="--rerun /tmp/keep/gate-rerun.json --jobs 14 --budget 60 --name gate-rerun2" \
    timeout -k 10 80 scripts/gpu-run $R gate | tail -4; pack
fi
MUTANT_ARGS="--jobs 12 --budget 60" timeout -k 10 100 scripts/gpu-run $R mutant | tail -5; pack
BITORDER_PINNED_LAYOUTS=1 PINNED_ARGS="--jobs 14 --rep 3 --budget 300 --kernels layernorm,rmsnorm,ln_bwd_dw,cross_entropy,gemm_colsum,loop_sum" \
  timeout -k 10 330 scripts/gpu-run $R pinned | tail -10; pack
