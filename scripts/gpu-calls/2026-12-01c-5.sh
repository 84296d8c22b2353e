#!/usr/bin/env bash
# 2026-12-01c call 5 (~4 min; issue 3): designed gemv probes (probe_gemv --cases) of the 101 algorithm-13
# answers the whole 2026-12-01c gate still sent to cuBLAS: batched options (every batch entry carries the
# same design), option 75 split on cuBLASLt's M = 1 bias path, options 80-83 with a bias; fit on the CPU.
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the wheel once
GEMV_ARGS="--cases benchmarks/results/2026-12-01c-gate/gemv-fallback-cases.json --budget ${BUDGET:-150}" \
  timeout -k 5 $(( ${BUDGET:-150} + 40 )) scripts/gpu-run $R gemv-probe | grep -v UserWarning | tail -12; pack
