#!/usr/bin/env bash
# 2026-12-02g call 4 (issue 3, ~3 min): (a) call 3's whole gate left 851 cases unreached (its 500-s budget, on an
# H100) and sent 105 calls to cuBLAS that are not cuBLAS's tail drop (102 of them only because of 57f4f8b's
# empty-partition fallback, reverted in 4411f3b): those 956 cases rerun as a gate on this tree (4411f3b's plans:
# every case whose plan differs from call 3's tree is among them), defaults only, fresh draws. (b) call 2's gemv
# ground (64 calls answered option 13 fp16 / 68 bf16 on the H100) and its planted fault mutant-probed-j, which call 2
# ran on an empty case list (the gate's output overwrote its --rerun file: named apart now). (c) First, a soundness
# check of the verified option-10 batched-dot entries at batches 19-100 (call 1's probe: at batch 25 bf16 dots ran 4
# or 32 lanes where batches 6-18 ran 16): 288 designed dots inside the entries' K ranges, defaults, the gate.
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
g() { grep -v '^ ' | grep -v UserWarning | grep -v '^\[' | tail -${1:-6}; }
C=benchmarks/results/2026-12-02g-gpu
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the wheel once
export PYTHONPATH=src:/tmp/site
GATE_ARGS="--jobs 14 --budget 40 --retry-oom 5 --seed 20261885 --rerun benchmarks/results/2026-12-02g-cases/dots-batch.json --name dots-batch" \
  timeout -k 5 70 scripts/gpu-run $R gate | g 6; cp $R/gate.log $R/dots-batch.log; pack
GATE_ARGS="--jobs 14 --budget 150 --retry-oom 10 --seed 20261881 --rerun $C/call3/rerun-left.json --name rerun-left" \
  timeout -k 5 190 scripts/gpu-run $R gate | g 8; cp $R/gate.log $R/rerun-left.log; pack
export BITORDER_UNVERIFIED=1
GATE_ARGS="--jobs 12 --budget 50 --retry-oom 5 --seed 20261882 --rerun $C/call2/ground13-cases.json --name ground13b" \
  timeout -k 5 75 scripts/gpu-run $R gate | g 6; cp $R/gate.log $R/ground13b.log; pack
GATE_ARGS="--jobs 12 --budget 40 --retry-oom 5 --seed 20261883 --rerun $C/call2/ground13-cases.json" \
  timeout -k 5 70 scripts/gpu-run $R mutant-probed-j | g 4; pack
