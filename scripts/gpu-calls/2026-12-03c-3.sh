#!/usr/bin/env bash
# 2026-12-03c call 3 (issue 3, ~7.5 min, H200; fired right after call 2 so that the machine, and /tmp/o2, stay):
# the same flip as call 2 (verify-candidates.py on call 2's JSONs), then thirds 2 and 3 of the whole gate (seed
# 20262130). Without /tmp/o2 it stops: a gate on another tree would not add up with third 1.
set -u
R=/tmp/o2/r
[ -f $R/mutant-both.json ] || { echo "no /tmp/o2 from call 2: stopping"; exit 3; }
python3 scripts/gpu-calls/verify-candidates.py $R/census-ground.json $R/ground-band.json $R/mutant-both.json > /tmp/verify3.txt
diff /tmp/verify3.txt $R/verify.txt && echo "[flip] the same as call 2"; grep -n "\"layouts\"" src/bitorder/cublas/segment_k.py
O=$OUT
OUT=$O/gate2 STAGE=/tmp/o3/gate2 THIRD=2 SEED=20262130 SKIP_REPORT=1 bash scripts/gpu-calls/next-issue3-gate.sh
OUT=$O/gate3 STAGE=/tmp/o3/gate3 THIRD=3 SEED=20262130 SKIP_REPORT=1 bash scripts/gpu-calls/next-issue3-gate.sh
