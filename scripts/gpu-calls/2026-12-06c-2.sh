#!/usr/bin/env bash
# 2026-12-06c call 2 (issue 5; call 1 ran these on 0844ec7: its launches were keyed by CompiledKernel.hash, not the cache folder, so nothing was compared, and no backward ran): TorchInductor kernels compiled for dynamic shapes (xnumel a parameter) classed over
# super-blocks where each variant stores nothing past its launch (check.tritoncache.dynamic_frames):
# (a) dynamic-grid: hand-written Inductor-style kernels (masked, unmasked, slack mask, row sum) at 6-7 variants, 25
#     sizes and 2 draws each; mutant-dynamic-grid: stores_past_end always "nothing past" (copied tree) must fail;
# (b) inductor-dynamic: torch.compile(dynamic=True) of the four model pieces, max_autotune_pointwise, each called at
#     5 token counts (the two MLPs backward too), every benched variant relaunched at every call; mutant-inductor-dynamic-sblock (the super-block
#     fault, copied tree) must fail. One archive. Any sm_90 card; about 8 min.
#   bash scripts/gpu-calls/2026-12-06c-2.sh      (carry [".whl"], benchmarks/results moved out)
set -u
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name --format=csv,noheader > $R/device.txt 2>&1
timeout -k 5 220 scripts/gpu-run $R dynamic-grid mutant-dynamic-grid > $R/grid.log 2>&1
echo "grid exit $?" >> $R/grid.log
timeout -k 5 330 scripts/gpu-run $R inductor-dynamic mutant-inductor-dynamic-sblock > $R/inductor.log 2>&1
echo "inductor exit $?" >> $R/inductor.log
tar czf $OUT/dynamic.tgz -C $OUT r && rm -rf $R
tar xzf $OUT/dynamic.tgz -O r/grid.log r/inductor.log | grep -E "^=== |wrong merges|wrong_merges|imports|exit" | cut -c1-400 | tail -40
