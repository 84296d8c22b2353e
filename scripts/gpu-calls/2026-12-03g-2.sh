#!/usr/bin/env bash
# 2026-12-03g call 2 (issue 5, ~9 min, H200), on the tree after call 1's probe (commit a598f12: the abs rule removed,
# the bf16 fold keyed with its all-NaN value). (a) max_join_probe.py --fault --only abs: abs.f16 / abs.bf16 against
# and.b16 0x7FFF counted bare / widened / under a max apart. (b) the gate's second part: the pinned kernels and their
# fp16/bf16 twins, call 1's options; then mutant-checker (tree keys that forget their operands, copied tree) on
# row_max_f16 and row_max_bf16, the kernels the 16-bit joins changed most.
#   bash scripts/gpu-calls/2026-12-03g-2.sh      (carry [".whl"])
set -u
O=$OUT; S=/tmp/g2; R=$S/r; mkdir -p $R
pack() { tar czf $O/call2.tgz -C $S r; }
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1
timeout -k 5 80 python3 benchmarks/max_join_probe.py --fault --only abs --out $R/maxjoin > $R/maxjoin.log 2>&1
python3 -c "
import json; d = json.load(open('$R/maxjoin/max_join.json'))
for r in d['results'] + d.get('planted', []): print(r['fault'], r['probe'], r['wrong_pairs'], r['examples_a_b'][:2])"
pack
K=$(PYTHONPATH=src python3 -c "import sys; sys.path.insert(0, 'benchmarks'); from corpus import SPECS; print(','.join(k for k in SPECS if k.startswith('pinned_')))")
CHECKER_ARGS="--jobs 15 --draws 5 --adversarial --grid --budget 280 --kernels $K" \
  timeout -k 5 320 scripts/gpu-run $R/pinned checker | tail -3
pack
MUTANT_KERNELS=row_max_f16,row_max_bf16 timeout -k 5 120 scripts/gpu-run $R mutant-checker | tail -5
pack
