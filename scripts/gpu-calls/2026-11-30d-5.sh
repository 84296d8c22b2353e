#!/usr/bin/env bash
# Session 2026-11-30d, call 5 (ran as one command line; 375 s limit): checker adversarial
# draws, certificate on 1,000 honest products, fp8 bench with and without TMA.
R=$OUT/r; mkdir -p $R $R/fp8-notma; pack() { tar czf $OUT/results.tgz -C $OUT r; }; timeout 30 scripts/gpu-run $R report >/dev/null 2>&1; ADVERSARIAL_ARGS="--jobs 8" timeout 95 scripts/gpu-run $R adversarial | tail -6; pack; CERTIFY_ARGS="--honest 1000" timeout 115 scripts/gpu-run $R certify | tail -4; pack; FP8_BENCH_ARGS="--budget 30" timeout 45 scripts/gpu-run $R fp8bench | tail -6; pack; BITORDER_FP8_TMA=0 FP8_BENCH_ARGS="--budget 30" timeout 45 scripts/gpu-run $R/fp8-notma fp8bench | tail -6; pack
