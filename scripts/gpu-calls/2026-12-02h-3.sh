#!/usr/bin/env bash
# 2026-12-02h call 3 (issue 3, H200): the whole fp16/bf16 gate, half 2 of 2, fresh seed 20261920, tree bb6c657
# (plans as of 535910b: candidates off; call 1 left the WIDE and option-10 fp16 dot candidates unverified).
HALF=2 SEED=20261920 bash scripts/gpu-calls/next-issue3-gate.sh
