#!/usr/bin/env bash
# 2026-12-03d call 2 (issues 3 and 5, ~7.5 min, H200): what the batch-62 bound on the dot entries (0b6b42c) costs in
# fallbacks (with batched gemv and gemmSN plans to batch 62, ab76d5e). (a) Census (plans only) of the last whole gate's cases (seed 20262130: 20,000 fuzz per dtype, bias,
# realistic, specials) on this tree; its fallbacks against the gate's 30 tail drops; (b) a fresh 4x census (seed
# 20262301, 177,120 plans): the fallbacks that are not cuBLAS's tail drop, listed by fallback_cases.py.
# (c) issue 5: the checker's soundness gate on the 21 TorchInductor kernels (5 wide draws) on this tree: gpt2_mlp poi1
# is walked since 2026-12-02h (v0 before; on the CPU its grids go 4 -> 1 class against the 2026-12-02f truth), not yet
# measured on the GPU; the partition quality per kernel (checker classes over true classes) and 0 wrong merges.
#   bash scripts/gpu-calls/2026-12-03d-2.sh      (carry [".whl"])
set -u
O=$OUT; S=/tmp/o2; R=$S/r; mkdir -p $R
pack() { tar czf $O/call2.tgz -C $S r; }
g() { grep -v '^ ' | grep -v UserWarning | grep -v '^\[' | tail -${1:-6}; }
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the wheel once
CENSUS_ARGS="--seed 20262130 --budget 60 --name census-gate" timeout -k 5 90 scripts/gpu-run $R census | g 1
python3 benchmarks/fallback_cases.py $R/left-gate.json $R/census-gate.json --skip-reason 'drops the last'
CENSUS_ARGS="--fuzz 80000 --bias 8000 --seed 20262301 --budget 100 --name census-4x" \
  timeout -k 5 130 scripts/gpu-run $R census | g 1
python3 benchmarks/fallback_cases.py $R/left-4x.json $R/census-4x.json --skip-reason 'drops the last'
gzip -f $R/census-gate.json $R/census-4x.json; pack
K=inductor_llama_mlp_t8_poi1,inductor_llama_mlp_t8_per0,inductor_llama_mlp_t512_per0,inductor_llama_mlp_t512_poi1
K=$K,inductor_gpt2_mlp_t8_per0,inductor_gpt2_mlp_t8_poi2,inductor_gpt2_mlp_t8_poi1,inductor_gpt2_mlp_t512_poi2
K=$K,inductor_gpt2_mlp_t512_poi1,inductor_gpt2_mlp_t512_per0,inductor_attn_probs_t8_per0,inductor_attn_probs_t512_per0
K=$K,inductor_cross_entropy_t8_red0,inductor_cross_entropy_t8_red0_bwd,inductor_cross_entropy_t8_red2
K=$K,inductor_cross_entropy_t8_per3,inductor_cross_entropy_t8_per1,inductor_cross_entropy_t8_per4
K=$K,inductor_cross_entropy_t512_red0,inductor_cross_entropy_t512_per1,inductor_cross_entropy_t512_red0_bwd
CHECKER_ARGS="--jobs 14 --draws 5 --budget 150 --kernels $K" timeout -k 5 180 scripts/gpu-run $R/inductor checker | tail -3
pack
