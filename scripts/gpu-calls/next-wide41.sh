#!/usr/bin/env bash
# Prepared 2026-12-02h for a next session (issue 3, ~3 min, H200 only): segment_k.WIDE's ground (algorithm 41's
# 256x64 run-time split). 2026-12-02h call 1's census of 480 perturbed shapes got the answer once (outside the
# region); this census takes 400 shapes inside the 10 records' own region (wide41-design.json), reruns those answered
# algorithm 41 under BITORDER_UNVERIFIED=1, then mutant-segk-wide over the same list. SEED: fresh.
SEED=${SEED:?} bash scripts/gpu-calls/ground.sh benchmarks/results/2026-12-02h-cases/wide41-design.json 41 wide41 mutant-segk-wide
