#!/usr/bin/env bash
# 2026-12-07e calls 1 and 2 (copy of 2026-12-07d-1.sh, which never ran): the soundness gate of the DEFAULT checker (the family walk first, v2; v1 where it
# declines, with check/ahead.py's read-ahead) over every configuration of one half of the corpus
# (scripts/gpu-calls/planned-v2-kernels-{a,b}.txt, copies of 2026-12-07b-checker-cpu/half_{a,b}.txt), unbound
# (no --grid / --bind: check.signature(ptx) as the corpus speed run and prune() class them), 5 wide draws plus the
# adversarial narrow, NaN and signed-zero ones, 10 workers (H100) or 15 (H200), budget BUDGET seconds (default 400);
# kernels not reached are listed in checker.json's not_reached (run again with KERNELS=list).
#   HALF=a BUDGET=420 bash scripts/gpu-calls/2026-12-07d-1.sh      (carry [".whl"], benchmarks/results moved out)
set -u
H=${HALF:?HALF=a or b}
R=$OUT/r; mkdir -p $R
B=${BUDGET:-400}
K=${KERNELS:-$(cat scripts/gpu-calls/planned-v2-kernels-$H.txt)}
nvidia-smi --query-gpu=name --format=csv,noheader > $R/device.txt 2>&1
J=10; grep -q H200 $R/device.txt && J=15
python3 -c "import importlib, sys; sys.path.insert(0, 'src'); m = importlib.import_module; \
print('FAMILIES', m('bitorder.check.signature').FAMILIES, 'AHEAD', m('bitorder.check.ahead').ON)" > $R/switches.txt 2>&1
CHECKER_ARGS="--jobs $J --draws 5 --adversarial --seed 41 --budget $B --kernels $K" \
  timeout -k 5 $((B + 45)) scripts/gpu-run $R/half_$H checker > $R/half_$H.log 2>&1
echo "half_$H exit $?" >> $R/half_$H.log
rm -f $R/half_$H/checker.png
tar czf $OUT/v2_half_$H.tgz -C $OUT r && rm -rf $R
tar xzf $OUT/v2_half_$H.tgz -O r/half_$H.log | tail -c 1200
