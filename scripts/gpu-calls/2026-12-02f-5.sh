#!/usr/bin/env bash
# 2026-12-02f call 5 (issue 3, inline, 26 s): call 2's one mismatch rerun on two fresh seeds (is it deterministic?).
# As run (one line; call 2's gate.json had been copied to benchmarks/results/2026-12-02f-gpu/call2/):
R=$OUT/r; mkdir -p $R; for s in 20261860 20261861; do GATE_ARGS="--jobs 12 --budget 60 --seed $s --rerun benchmarks/results/2026-12-02f-gpu/call2/gate.json --name rerun-$s" timeout -k 5 90 scripts/gpu-run $R gate 2>&1 | grep -v '^ ' | grep -v UserWarning | grep -v '^\[' | tail -5; cp $R/gate.log $R/rerun-$s.log; done; tar czf $OUT/results.tgz -C $OUT r
