#!/usr/bin/env bash
# 2026-12-02d, the session's last call (~5 min): (1) gemm_colsum's whole suite space with the row permutation now
# the layout pass's default (no BITORDER_PINNED_ROWPERM in the environment): invariance, CPU reference, best pinned
# over best free; (2) mutant-rowperm on that tree, its exit now failing on broken invariance too (call 1's mutant
# broke invariance but its job only asked for the CPU reference, which it compares at the last configuration);
# (3) mutant-probed-i over the gemv candidates' 224 ground cases (call 3 overwrote its cases file with the gate's
# result, so its mutant ran 0 cases; regenerated on the CPU from call 3's census into the results folder).
set -u
R=$OUT/r; mkdir -p $R/suite
pack() { tar czf $OUT/results.tgz -C $OUT r; }
BITORDER_PINNED_LAYOUTS=1 PINNED_ARGS="--jobs 14 --rep 3 --budget 130 --kernels gemm_colsum" \
  timeout -k 10 160 scripts/gpu-run $R/suite pinned | tail -4; pack
BITORDER_PINNED_LAYOUTS=1 timeout -k 5 80 scripts/gpu-run $R mutant-rowperm | tail -4; pack
BITORDER_UNVERIFIED=1 GATE_ARGS="--jobs 12 --budget 50 --retry-oom 5 --seed 20261833 --rerun benchmarks/results/2026-12-02d-gpu/ground13-cases.json" \
  timeout -k 5 80 scripts/gpu-run $R mutant-probed-i | grep -v '^ ' | grep -v UserWarning | tail -4; pack
