#!/usr/bin/env bash
# 2026-12-03g call 1 (issue 5, ~8 min, H200). (a) benchmarks/max_join_probe.py --fault: max.f16 / max.bf16 joins,
# max.f32 a join over sampled patterns (NaN pairs), the widening folds cvt.f32(max16) = max.f32(cvt, cvt) and abs16 =
# and.b16 0x7FFF, each 2^32 pairs, then again with each probe's planted fault. (b) the soundness gate, first part,
# on the tree with the 16-bit joins (commit "checker: max.f16 / max.bf16 join"): the hand-written kernels and their
# twins that are neither pinned_*, inductor_*, nor the row-width / scan-width kernels of part 4; --grid, 5 wide + 8
# adversarial draws (narrow, NaN, signed-zero and the new NaN-payload draw, twice), 15 workers.
#   bash scripts/gpu-calls/2026-12-03g-1.sh      (carry [".whl"])
set -u
O=$OUT; S=/tmp/g1; R=$S/r; mkdir -p $R
pack() { tar czf $O/call1.tgz -C $S r; }
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the wheel once
timeout -k 5 200 python3 benchmarks/max_join_probe.py --fault --out $R/maxjoin > $R/maxjoin.log 2>&1
python3 -c "
import json; d = json.load(open('$R/maxjoin/max_join.json'))
for r in d['results'] + d.get('planted', []): print(r['fault'], r['probe'], r['wrong_pairs'], r['examples_a_b'][:2])"
pack
K=$(PYTHONPATH=src python3 -c "
import re, sys; sys.path.insert(0, 'benchmarks'); from corpus import SPECS
print(','.join(k for k in SPECS if not k.startswith(('inductor_', 'pinned_'))
               and not (re.search(r'_c(64|128|1024|2048)(_|$)', k) or k.startswith(('swiglu', 'gelu_tanh')))))")
CHECKER_ARGS="--jobs 15 --draws 5 --adversarial --grid --budget 250 --kernels $K" \
  timeout -k 5 300 scripts/gpu-run $R/gate checker | tail -3
pack
