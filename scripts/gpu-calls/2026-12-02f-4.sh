#!/usr/bin/env bash
# 2026-12-02f call 4 (issue 5, 74 s): scripts/gpu-calls/next-checker-inductor.sh as prepared 2026-12-02e, run as is.
# Prepared 2026-12-02e for a next session (issue 5, ~6 min): the checker's soundness gate on the 21 TorchInductor
# kernels captured on the H200 (2026-11-30, benchmarks/corpus/inductor_capture/; 752 configurations: XBLOCK,
# R0_BLOCK, num_warps, num_stages), never yet run on the GPU: every configuration on 5 fresh wide-range draws,
# a wrong merge = two configurations in one checker class whose outputs differ in any byte (must be 0), the
# partition quality per kernel (checker classes over true classes). Then the gate's planted fault (tree keys
# that forget their operands, copied tree) on two of them: it must show wrong merges.
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the wheel once
K=inductor_llama_mlp_t8_poi1,inductor_llama_mlp_t8_per0,inductor_llama_mlp_t512_per0,inductor_llama_mlp_t512_poi1
K=$K,inductor_gpt2_mlp_t8_per0,inductor_gpt2_mlp_t8_poi2,inductor_gpt2_mlp_t8_poi1,inductor_gpt2_mlp_t512_poi2
K=$K,inductor_gpt2_mlp_t512_poi1,inductor_gpt2_mlp_t512_per0,inductor_attn_probs_t8_per0,inductor_attn_probs_t512_per0
K=$K,inductor_cross_entropy_t8_red0,inductor_cross_entropy_t8_red0_bwd,inductor_cross_entropy_t8_red2
K=$K,inductor_cross_entropy_t8_per3,inductor_cross_entropy_t8_per1,inductor_cross_entropy_t8_per4
K=$K,inductor_cross_entropy_t512_red0,inductor_cross_entropy_t512_per1,inductor_cross_entropy_t512_red0_bwd
CHECKER_ARGS="--jobs 14 --draws 5 --budget 240 --kernels $K" timeout -k 10 300 scripts/gpu-run $R/inductor checker | tail -12; pack
MUTANT_K=inductor_cross_entropy_t8_red0,inductor_gpt2_mlp_t8_per0
mkdir -p $R/mutant
timeout -k 5 100 scripts/mutant-run src/bitorder/check/symbolic.py "kids = sorted(kids)" "kids = [str(len(kids))]" \
  -- python3 benchmarks/checker_gate.py --out $R/mutant --gpu --kernels $MUTANT_K --sample 32 --draws 2 \
  > $R/mutant.log 2>&1; echo "mutant-checker exit $? (0: the fault was caught)"; tail -4 $R/mutant.log; pack
