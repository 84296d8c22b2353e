#!/usr/bin/env bash
# 2026-11-30j call 2 (~9 min; issue 3): the gemv rule after call 1 (contiguous chunks from the span,
# option 10 bounded per dtype, options 96/100/106 fp16) on 2,000 fresh shapes; the kernel on call 1's
# probe records; the probe on algorithms 14 and 24 (K >= 16) and the options still without a rule, and
# on option 10 calls past the output bounds; the GEMM gate's M == 1 or N == 1 cases with the rule on.
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the wheel once
mkdir -p $R/rule; GEMV_CHECK_ARGS="--rule 2000 --budget 90 --seed 20261209" timeout -k 10 125 scripts/gpu-run $R/rule gemv-check | tail -40; pack
mkdir -p $R/check; GEMV_CHECK_ARGS="--fit benchmarks/results/2026-11-30j-gemv/probe/probe_gemv_fit.json" timeout -k 10 40 scripts/gpu-run $R/check gemv-check | tail -8; pack
mkdir -p $R/probe; GEMV_ARGS="--want a14-fp16,a14-bf16,a24-fp16,a24-bf16,o96-bf16,o106-bf16,o101-fp16,o101-bf16,o73-bf16,o12-fp16,o13-fp16 --per-key 2 --draws 2000 --budget 70 --seed 20261210" \
  timeout -k 10 115 scripts/gpu-run $R/probe gemv-probe | tail -30; pack
mkdir -p $R/probe10; GEMV_ARGS="--want o10-fp16,o10-bf16 --min-outputs 7000 --per-key 3 --draws 4000 --budget 30 --seed 20261211" \
  timeout -k 10 70 scripts/gpu-run $R/probe10 gemv-probe | tail -10; pack
mkdir -p $R/gate; BITORDER_UNVERIFIED=1 BITORDER_GEMV_RULE=1 GATE_ARGS="--only gemv --jobs 14 --budget 110 --retry-oom 20 --name gate-gemv" \
  timeout -k 10 150 scripts/gpu-run $R/gate gate | tail -12; pack
