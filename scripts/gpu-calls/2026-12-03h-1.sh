#!/usr/bin/env bash
# 2026-12-03h call 1 (issue 5, ~6 min, H200): the abs16-fold rule (and.b16 x, 0x7FFF of an f16 tree read as abs.f16
# under cvt.f32.f16; merged into main from branch abs16-fold) gated before it is relied on:
#   part a: the row_absmax f16/bf16 kernels (the rule's target), every configuration, --grid;
#   part b: every other corpus kernel holding 16-bit data (as 2026-12-03f-5.sh), 24 sampled configurations each.
# 5 wide + 8 adversarial draws (incl. the NaN-payload draw), 15 workers.
#   bash scripts/gpu-calls/2026-12-03h-1.sh      (carry [".whl"])
set -u
O=$OUT; S=/tmp/h1; R=$S/r; mkdir -p $R
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1
A=$(PYTHONPATH=src python3 -c "
import sys; sys.path.insert(0, 'benchmarks'); from corpus import SPECS
print(','.join(k for k in SPECS if k.startswith('row_absmax') and k.endswith(('f16', 'bf16'))))")
CHECKER_ARGS="--jobs 15 --draws 5 --adversarial --grid --budget 120 --kernels $A" \
  timeout -k 5 150 scripts/gpu-run $R/gate_a checker | tail -3
B=$(PYTHONPATH=src python3 -c "
import re, sys; sys.path.insert(0, 'benchmarks'); from corpus import SPECS
ks = [k for k in SPECS if not k.startswith(('inductor_', 'row_absmax')) and (re.search(r'(f16|bf16|fp16)', k)
      or k.startswith(('layernorm_affine', 'rmsnorm_affine', 'swiglu')))]
print(','.join(sorted(ks, key=lambda k: (not k.startswith('pinned_'), k))))")
CHECKER_ARGS="--jobs 15 --draws 5 --adversarial --grid --sample 24 --budget 230 --kernels $B" \
  timeout -k 5 270 scripts/gpu-run $R/gate_b checker | tail -3
tar czf $O/call1.tgz -C $S r
