#!/usr/bin/env bash
# Prepared 2026-12-02h for a next session (issue 3, ~3 min, H200): the ground of segment_k.UNSPLIT (algorithm 41,
# 64x64, split_k -1 with segment-K off: the plain chain, bias in fp32 before the rounding; read from 5 records of call
# 6). 400 designed fp16 F.linear-with-bias shapes inside its region (all four layouts: nt and nn may answer other
# kernels), their census, those answered algorithm 41 rerun under BITORDER_UNVERIFIED=1, then mutant-segk-off (the
# bias after the rounding) over the same list. SEED: fresh.
SEED=${SEED:?} bash scripts/gpu-calls/ground.sh benchmarks/results/2026-12-02h-cases/unsplit-design.json 41 unsplit mutant-segk-off
