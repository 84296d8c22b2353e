#!/usr/bin/env bash
# 2026-12-03c call 5 (issue 6, ~3 min with the session's last device seconds, H200): the fp8 realistic set's speed
# with the promoting chains' K loop warp-specialized (BITORDER_FP8_WS=1: a TMA producer and two consumer
# warpgroups), then the default, each --budget 50 (the same seed, so the same shapes first), bytes compared with
# torch._scaled_mm on every timed call. Candidates plan (BITORDER_UNVERIFIED=1), as in 2026-12-02f call 3.
set -u
O=$OUT; S=/tmp/o5; R=$S/r; mkdir -p $R
pack() { tar czf $O/call5.tgz -C $S r; }
g() { grep -v '^ ' | grep -v UserWarning | grep -v '^\[' | tail -${1:-8}; }
BITORDER_UNVERIFIED=1 BITORDER_FP8_WS=1 FP8_BENCH_ARGS="--budget 50" timeout -k 5 75 scripts/gpu-run $R/ws fp8bench | g 16; pack
BITORDER_UNVERIFIED=1 FP8_BENCH_ARGS="--budget 50" timeout -k 5 75 scripts/gpu-run $R/default fp8bench | g 16; pack
