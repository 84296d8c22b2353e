#!/usr/bin/env bash
# 2026-12-03 call 1 (H200, ~7 min): issue 3's two candidate grounds, then issue 5's Inductor gate on the diamond walk.
#  (1) segment_k.UNSPLIT's ground (next-segk-off.sh: 400 designed fp16 F.linear-with-bias shapes, census, the
#      algorithm-41 answers rerun under BITORDER_UNVERIFIED=1, mutant-segk-off over the same list), seed 20261931;
#  (2) segment_k.WIDE's ground (next-wide41.sh, same steps, mutant-segk-wide), seed 20261933, if time allows;
#  (3) the checker's Inductor gate and its planted fault (2026-12-02f-7.sh) on the committed diamond walk.
# Each part writes under its own folder of $OUT (segk/, wide/, ind/), each with its own results.tgz.
set -u
O=$OUT; t0=$SECONDS
OUT=$O/segk SEED=20261931 bash scripts/gpu-calls/next-segk-off.sh; echo "== segk done at $((SECONDS-t0)) s"
if [ $((SECONDS-t0)) -lt 240 ]; then OUT=$O/wide SEED=20261933 bash scripts/gpu-calls/next-wide41.sh; fi
echo "== wide done at $((SECONDS-t0)) s"
if [ $((SECONDS-t0)) -lt 440 ]; then OUT=$O/ind bash scripts/gpu-calls/2026-12-02f-7.sh; fi
echo "== all done at $((SECONDS-t0)) s"
