#!/usr/bin/env bash
# Obsolete (2026-12-04d): the magic-division rule was rebuilt on main as src/bitorder/check/magic.py and gated on the
# kernels it can change (scripts/gpu-calls/2026-12-04d-4.sh; benchmarks/results/2026-12-04d-gpu call 4).
echo "obsolete: see scripts/gpu-calls/2026-12-04d-4.sh"; exit 2
