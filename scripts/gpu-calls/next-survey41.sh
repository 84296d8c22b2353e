#!/usr/bin/env bash
# Prepared 2026-12-02c for a next session (issue 3, ~2.5 min): a survey (kernels, answers, walks, sampled bits) of
# algorithm 41's run-time splits past one K tile: the 35 calls of 2026-12-02c's ground41 that differed from the
# unsplit reading (fp16 nt, 128x128 tiles, K 1,944-2,286; benchmarks/results/2026-12-02c-gpu/call4/ground41.json).
# 2026-12-02c's survey reached only algorithm-42 calls (budget); the segment-K candidate fitted for 42 (one wave
# of 132 tiles plain, left-over tiles split along K: bitorder.cublas.segment_k) is the reading to test on these
# records on the CPU afterwards (`benchmarks/fit_segment_k.py` with 41's 128-row tiles).
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the wheel once
SURVEY_ARGS="--cases benchmarks/results/2026-12-02c-gpu/call4/ground41.json --budget 100 --name survey-41" \
  timeout -k 5 120 scripts/gpu-run $R survey | grep -v '^ ' | tail -3; pack
