#!/usr/bin/env bash
# 2026-12-06 call 1 (planned in 2026-12-05i): the super-block gate over EVERY configuration of the other half of the
# corpus (scripts/gpu-calls/planned-sblock-kernels-b.txt, a copy of 2026-12-05b-checker-cpu/half_b.txt: 125 kernels), as 2026-12-05i calls 2 and 3 ran it over
# half a: checker_gate --sblock, adversarial draws, seed 29, 10 workers (H100) or 15 (H200), budget BUDGET seconds
# (default 400); kernels not reached are listed in checker.json's not_reached (run again over those with KERNELS=list).
# Everything packed into one archive (the tool returns a limited number of files).
#   BUDGET=420 bash scripts/gpu-calls/2026-12-06-1.sh      (carry [".whl"], benchmarks/results moved out)
set -u
R=$OUT/r; mkdir -p $R
B=${BUDGET:-400}
K=${KERNELS:-$(cat scripts/gpu-calls/planned-sblock-kernels-b.txt)}
nvidia-smi --query-gpu=name --format=csv,noheader > $R/device.txt 2>&1
J=10; grep -q H200 $R/device.txt && J=15
CHECKER_ARGS="--sblock --jobs $J --draws 5 --adversarial --seed 29 --budget $B --kernels $K" \
  timeout -k 5 $((B + 45)) scripts/gpu-run $R/half_b checker > $R/half_b.log 2>&1
echo "half_b exit $?" >> $R/half_b.log
rm -f $R/half_b/checker.png
tar czf $OUT/sblock_half_b.tgz -C $OUT r && rm -rf $R
tar xzf $OUT/sblock_half_b.tgz -O r/half_b.log | tail -c 900
