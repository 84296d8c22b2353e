#!/usr/bin/env bash
# A later call (~9.5 min; when a session has the time): the TorchInductor demo (issue 4: a
# torch.compile'd model batch-invariant with pinned reductions), the checker's soundness gate with
# the comparison normal forms and bit-tracked predicates, TorchInductor's kernels for the corpus (issue 5).
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
timeout 40 scripts/gpu-run $R report > /dev/null 2>&1
INDUCTOR_ARGS="--budget 170" timeout 190 scripts/gpu-run $R inductor | tail -12; pack
CHECKER_ARGS="--jobs 12 --draws 5 --budget 150" timeout 180 scripts/gpu-run $R checker | tail -3; pack
timeout 120 scripts/gpu-run $R capture | tail -4; pack
