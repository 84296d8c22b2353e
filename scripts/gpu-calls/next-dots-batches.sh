#!/usr/bin/env bash
# Prepared 2026-12-03c for a next session (issue 3 hardening, ~5 min, H200): do the verified dot entries that bound
# no batch hold at every batch? 2026-12-03c found four that did not (option 10 bf16 from K 95: 32 lanes at batches
# 24-41, where grounds at other batches had verified 16). Census of 264 designed dots, 12 in each of the 22 such
# entries, batches uniform over 2-80 (benchmarks/results/2026-12-03c-cases/dots-unbounded.json, design_regions.py
# --per 12 --unbounded --seed 20262150), then the designed gemv probe of every algorithm-13 answer among them,
# planned or not, shortest K first. On the CPU afterwards:
#   bitorder probe gemv-fit <probe_gemv.json.gz> --dots --check
# A DISAGREES is wrong bits: bound that entry's batches at once (as ab0202f did), then ground the other side.
#   STAGE=/tmp/oN OUT=$OUT/batches bash scripts/gpu-calls/next-dots-batches.sh
# (next-dots-band.sh's census and probe over this design; files named census-unbounded, gemv-unbounded)
DESIGN=benchmarks/results/2026-12-03c-cases/dots-unbounded.json NAME=unbounded \
  exec bash "$(dirname "$0")/next-dots-band.sh"
