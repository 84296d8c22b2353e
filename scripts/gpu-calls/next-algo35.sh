#!/usr/bin/env bash
# Next session (prepared on the CPU, not yet run; ~8 min): algorithm 35's candidate entry
# algo35-xmma-splitk-strided (merged 2026-12-02 from the branch algo35-strided: split_k layout "strided", K tiles of 64 dealt to the 9 parts
# in turn, bias in fp32 after the merge) on fresh draws, under BITORDER_UNVERIFIED=1:
#  (1) gate_gemm --rerun of the algorithm-35 cases: benchmarks/results/2026-12-02-cases/algo35.json plus 60 of the 248
#      algorithm-35 fallbacks of 2026-12-02 call 2's census (census-nb.json.gz), three draws each (narrow, wide,
#      cancelling); every case should plan "triton" with the strided desc and be identical;
#  (2) the planted fault: the same ground on a copied tree whose entry deals tiles of 32 (the fit's walks reject it)
#      must fail (scripts/mutant-run exits 0 only when the command failed);
#  (3) the designed bias-placement probe (benchmarks/probe_algo35_bias.py: bias 2^-17, +L at k = 63 and -L at k = 64,
#      and +L at 0 / -L at 64 * 9) on 12 algorithm-35 shapes: which of acc / seed0 / part0 the H200 gives.
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
g() { grep -v '^ ' | grep -v UserWarning | grep -v '^\[' | tail -${1:-6}; }
D=benchmarks/results/2026-12-02-cases
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the wheel once
export PYTHONPATH=src:/tmp/site
python3 benchmarks/fallback_cases.py $R/a35-census.json benchmarks/results/2026-12-02-gpu/call2/census-nb.json.gz --algo 35
python3 - $R/a35-census.json $D/algo35.json $R/a35.json <<'PY'
import json, random, sys
c = json.load(open(sys.argv[1]))["not_reached_cases"]; random.Random(35).shuffle(c)
own = json.load(open(sys.argv[2]))["not_reached_cases"]
json.dump({"not_reached_cases": own + c[:60]}, open(sys.argv[3], "w"))
print(f"[algo35] {len(own)} + {len(c[:60])} of {len(c)} census cases")
PY
rm $R/a35-census.json
BITORDER_UNVERIFIED=1 python3 -c "
from bitorder.cublas.profile import ArchProfile
ans = {'algo_id': 35, 'tile': '32x32', 'stages': '64x6', 'split_k': 9, 'reduction_scheme': 2, 'custom_option': 2}
print('[algo35] plans', ArchProfile.load().describe(ans, 236336, 'fp16', True))"
BITORDER_UNVERIFIED=1 GATE_ARGS="--jobs 8 --budget 150 --retry-oom 5 --seed 20261735 --rerun $R/a35.json --name a35-ground" \
  timeout -k 5 190 scripts/gpu-run $R gate | g 8; cp $R/gate.log $R/a35-ground.log; pack
mkdir -p $R/mutant-a35
BITORDER_UNVERIFIED=1 timeout -k 5 150 scripts/mutant-run src/bitorder/cublas/profiles/sm90-cublas13.1.json \
  '    "tile": 64,' '    "tile": 32,' \
  -- python3 benchmarks/gate_gemm.py --out $R/mutant-a35 --jobs 8 --budget 110 --retry-oom 5 --seed 20261736 \
     --rerun $R/a35.json --name mutant_a35 2>&1 | g 6; pack
BITORDER_UNVERIFIED=1 timeout -k 5 120 python3 benchmarks/probe_algo35_bias.py --cases $R/a35.json --out $R --n 12 2>&1 | tail -14
pack; rm -rf $R
