#!/usr/bin/env bash
# 2026-12-03f call 5 (issue 5, ~5 min, H200): the checker's 16-bit rules (f16x2 halves, a 16-bit value through a
# 32-bit shuffle, shared words forgotten when stored over at another width; commit "check: 16-bit data") gated on
# every corpus kernel that holds 16-bit data (153 kernels: the f16/bf16 twins, row_sum_fp16, the affine norms,
# swiglu, the fp16 GEMMs and attention) plus the three fp32 kernels whose keys the rules changed (cross_entropy_bwd,
# logsumexp, gelu_tanh): 24 sampled configurations a kernel, --grid, 5 wide + 6 adversarial draws, 15 workers.
# First (seconds): benchmarks/max_join_probe.py, whether PTX max.f16 / max.bf16 are joins over all 2^32 pairs each.
#   bash scripts/gpu-calls/2026-12-03f-5.sh      (carry [".whl"])
set -u
O=$OUT; S=/tmp/o5; R=$S/r; mkdir -p $R
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1
timeout -k 5 60 python3 benchmarks/max_join_probe.py --out $R/maxjoin > $R/maxjoin.log 2>&1; tail -12 $R/maxjoin.log
K=$(PYTHONPATH=src python3 -c "
import re, sys; sys.path.insert(0, 'benchmarks'); from corpus import SPECS
ks = [k for k in SPECS if not k.startswith('inductor_') and (re.search(r'(f16|bf16|fp16)', k)
      or k.startswith(('layernorm_affine', 'rmsnorm_affine', 'swiglu')))] + ['cross_entropy_bwd', 'logsumexp', 'gelu_tanh']
print(','.join(sorted(ks, key=lambda k: (not k.startswith('pinned_'), not k.startswith('row_sum_fp16'), k))))")
CHECKER_ARGS="--jobs 15 --draws 5 --adversarial --grid --sample 24 --budget 230 --kernels $K" \
  timeout -k 5 290 scripts/gpu-run $R/gate checker | tail -3
tar czf $O/call5.tgz -C $S r
