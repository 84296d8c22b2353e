#!/usr/bin/env bash
# Ran as 2026-12-03d call 1 (prepared 2026-12-03c) (~8.5 min, H200), both prepared checks in one start:
# (a) issue 3 hardening: the 22 verified dot entries that bound no batch, checked across batches 2-80
#     (next-dots-batches.sh, ~5 min); then `bitorder probe gemv-fit <probe_gemv.json.gz> --dots --check` on the CPU;
# (b) issue 6: BITORDER_FP8_PERSISTENT against the default on the fp8 realistic set, bytes compared
#     (next-fp8-persistent.sh, ~3 min).
#   bash scripts/gpu-calls/2026-12-03d-1.sh      (carry [".whl"])
set -u
O=$OUT
STAGE=/tmp/o1/batches OUT=$O/batches bash scripts/gpu-calls/next-dots-batches.sh
STAGE=/tmp/o1/persistent OUT=$O/persistent bash scripts/gpu-calls/next-fp8-persistent.sh
