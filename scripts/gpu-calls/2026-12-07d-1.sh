#!/usr/bin/env bash
# 2026-12-07d calls 1 and 2, prepared and never run (no device started that session). They ran in 2026-12-07e as
# scripts/gpu-calls/2026-12-07e-1.sh, this script's text then (results/2026-12-07e-checker-gpu); this one runs that.
#   HALF=a BUDGET=420 bash scripts/gpu-calls/2026-12-07d-1.sh      (carry [".whl"], benchmarks/results moved out)
exec bash "$(dirname "$0")/2026-12-07e-1.sh"
