#!/usr/bin/env bash
# 2026-12-03d call 5 (issue 3, ~3 min, H200, fired inline on the warm machine right after call 4; recorded here as
# it ran): third 3 of the whole fp16/bf16 gate on this tree, seed 20262310 (call 3 ran third 1).
#   run: S=/tmp/o5; SKIP_REPORT=1 THIRD=3 SEED=20262310 GATE_BUDGET=230 STAGE=$S/gate OUT=$OUT bash scripts/gpu-calls/next-issue3-gate.sh
set -u
S=/tmp/o5; SKIP_REPORT=1 THIRD=3 SEED=20262310 GATE_BUDGET=230 STAGE=$S/gate OUT=$OUT bash scripts/gpu-calls/next-issue3-gate.sh
