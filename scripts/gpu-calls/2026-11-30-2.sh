#!/usr/bin/env bash
# Call 2 of 2026-11-30: the first half of the 45,120-case GEMM gate (kept kernels, wide tiles,
# L2 swizzle), its planted fault, then the exp/log speed and the certificate on H200 products.
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
export BITORDER_FAST_LAUNCH=1 BITORDER_TILES=wide
GATE_ARGS="--jobs 14 --budget 300 --retry-oom 30 --slice 0:22560" timeout 370 scripts/gpu-run $R gate; pack
timeout 60 scripts/gpu-run $R mutant; pack
timeout 50 scripts/gpu-run $R mathspeed; pack
CERTIFY_ARGS="--honest 300" timeout 60 scripts/gpu-run $R certify; pack
