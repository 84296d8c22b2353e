#!/usr/bin/env bash
# 2026-12-02f call 7 (issue 5, ~2 min, after a cold start with ~260 device seconds left): the checker's soundness
# gate on the 21 TorchInductor kernels (752 configurations, 5 draws) on a committed checker that reads L2 cache-policy
# hints (call 4 ran on an uncommitted state and found 49 of 73 grids opaque for createpolicy), then its planted
# fault (tree keys that forget their operands) on two kernels the checker now walks. No report job: seconds count.
set -u
R=$OUT/r; mkdir -p $R/mutant
pack() { tar czf $OUT/results.tgz -C $OUT r; }
git -C . log --oneline -1 > $R/tree.txt 2>/dev/null; git status --short src > $R/dirty.txt 2>/dev/null
K=inductor_llama_mlp_t8_poi1,inductor_llama_mlp_t8_per0,inductor_llama_mlp_t512_per0,inductor_llama_mlp_t512_poi1
K=$K,inductor_gpt2_mlp_t8_per0,inductor_gpt2_mlp_t8_poi2,inductor_gpt2_mlp_t8_poi1,inductor_gpt2_mlp_t512_poi2
K=$K,inductor_gpt2_mlp_t512_poi1,inductor_gpt2_mlp_t512_per0,inductor_attn_probs_t8_per0,inductor_attn_probs_t512_per0
K=$K,inductor_cross_entropy_t8_red0,inductor_cross_entropy_t8_red0_bwd,inductor_cross_entropy_t8_red2
K=$K,inductor_cross_entropy_t8_per3,inductor_cross_entropy_t8_per1,inductor_cross_entropy_t8_per4
K=$K,inductor_cross_entropy_t512_red0,inductor_cross_entropy_t512_per1,inductor_cross_entropy_t512_red0_bwd
CHECKER_ARGS="--jobs 14 --draws 5 --budget 60 --kernels $K" timeout -k 5 85 scripts/gpu-run $R/inductor checker | tail -3; pack
export PYTHONPATH=src:/tmp/site
timeout -k 5 50 scripts/mutant-run src/bitorder/check/symbolic.py "kids = sorted(kids)" "kids = [str(len(kids))]" \
  -- python3 benchmarks/checker_gate.py --out $R/mutant --gpu --kernels inductor_gpt2_mlp_t8_per0,inductor_cross_entropy_t512_red0 \
  --sample 32 --draws 2 > $R/mutant.log 2>&1; echo "mutant-checker exit $? (0: the fault was caught)"; tail -2 $R/mutant.log | cut -c1-600; pack
