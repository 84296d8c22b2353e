#!/usr/bin/env bash
# 2026-12-04d call 5 (issue 5): the byte-parts rules (memory.BYTE_PARTS, BITORDER_BYTE_PARTS=1: a part of a zero-extended
# 16-bit value, and consecutive finer parts of one value joined: prmt's byte packs of widened halves) gated, as
# 2026-12-03h call 1 gated the sign0 rule:
#   part a: pinned_loop_sum's fp16/bf16 twins (the rule's target), every configuration, --grid;
#   part b: every other corpus kernel holding 16-bit data, 24 sampled configurations each;
# 5 wide + adversarial draws, 15 workers; then mutant-checker with the rule on (the gate must fail).
set -u
export BITORDER_BYTE_PARTS=1
R=$OUT/r; mkdir -p $R
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1
CHECKER_ARGS="--jobs 15 --draws 5 --adversarial --grid --budget 100 --kernels pinned_loop_sum_f16,pinned_loop_sum_bf16" \
  timeout -k 5 130 scripts/gpu-run $R/gate_a checker | tail -3
B=$(PYTHONPATH=src python3 -c "
import re, sys; sys.path.insert(0, 'benchmarks'); from corpus import SPECS
ks = [k for k in SPECS if not k.startswith(('inductor_', 'pinned_loop_sum')) and (re.search(r'(f16|bf16|fp16)', k)
      or k.startswith(('layernorm_affine', 'rmsnorm_affine', 'swiglu')))]
print(','.join(sorted(ks, key=lambda k: (not k.startswith('pinned_'), k))))")
CHECKER_ARGS="--jobs 15 --draws 5 --adversarial --grid --sample 24 --budget 250 --kernels $B" \
  timeout -k 5 290 scripts/gpu-run $R/gate_b checker | tail -3
MUTANT_KERNELS=pinned_loop_sum_bf16 timeout -k 5 100 scripts/gpu-run $R mutant-checker | tail -4
