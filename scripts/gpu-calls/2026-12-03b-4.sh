#!/usr/bin/env bash
# 2026-12-03b call 4 (issue 3, ~1 min, H200, typed inline while the machine was warm): segment_k.WIDE's ground again
# (its 2026-12-03 ground's files were lost; a second census answered it 0 times), staged off $OUT.
OUT=$OUT/wide STAGE=/tmp/o4/wide SEED=20261970 bash scripts/gpu-calls/next-wide41.sh
