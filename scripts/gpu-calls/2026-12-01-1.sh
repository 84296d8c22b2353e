#!/usr/bin/env bash
# 2026-12-01 call 1 (~4 min; issue 3): record the SIMT GEMMs still falling back: the dot kernel
# (algorithm 14) over a ladder of K with seeded draws and designed experiments; fresh fuzz shapes
# answering gemmSN (11) and magma (16), a few of each with designed experiments and draws.
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the wheel once
SIMT_ARGS="--budget 200 --per-algo 6" timeout -k 10 300 scripts/gpu-run $R simt-probe | grep -v UserWarning | tail -120; pack
