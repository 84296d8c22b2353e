#!/usr/bin/env bash
# 2026-12-02h call 4 (issue 5, H200; prepared 2026-12-02f as next-checker-adversarial-inductor.sh, ~6 min): are the checker's splits of the Inductor kernels real?
# 2026-12-02f call 7 measured 257 checker classes over 138 true on 5 wide draws; the cross-entropy reductions split
# 23-24 ways where the wide draws show 3. Read on the CPU: Inductor's triton_helpers.maximum returns its second
# operand on ties (max(+0, -0) = -0, max(-0, +0) = +0; of two NaNs the first), so the tree's order shows on draws
# with signed zeros or NaNs, which wide draws never hold. benchmarks/checker_adversarial.py reruns every
# configuration on its narrow / nan / zeros draws besides the wide ones: a checker class holding two truths is a
# wrong merge (must be 0), a split the new truth also splits is real. Then the Inductor gate's last kernel
# (cross_entropy_t512_red0_bwd, not reached in call 7's budget). No report job.
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
K=inductor_cross_entropy_t8_red0,inductor_cross_entropy_t8_red0_bwd,inductor_cross_entropy_t8_red2
K=$K,inductor_cross_entropy_t512_red0,inductor_attn_probs_t8_per0,inductor_gpt2_mlp_t8_poi1
ADVERSARIAL_ARGS="--jobs 6 --kernels $K" timeout -k 10 330 scripts/gpu-run $R adversarial | tail -12; pack
CHECKER_ARGS="--jobs 14 --draws 5 --budget 150 --kernels inductor_cross_entropy_t512_red0_bwd" \
  timeout -k 5 180 scripts/gpu-run $R/last checker | tail -3; pack
