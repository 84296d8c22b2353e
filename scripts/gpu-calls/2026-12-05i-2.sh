#!/usr/bin/env bash
# 2026-12-05i call 2 (issue 5), tree 869c3cf, on call 1's warm machine: (a) call 1's files that did not come back
# (too many files) found where call 1's $OUT was and packed; (b) 2026-12-05h call 4, never run there: the super-block
# gate (checker_gate --sblock) over EVERY configuration of half the corpus (scripts/gpu-calls/2026-12-05h-kernels-a.txt),
# adversarial draws, seed 29, 10 workers (H100) or 15 (H200), budget BUDGET seconds (default 400): kernels not reached
# are listed in checker.json's not_reached. Everything packed into one archive.
#   BUDGET=400 bash scripts/gpu-calls/2026-12-05i-2.sh      (carry [".whl"], benchmarks/results moved out)
set -u
R=$OUT/r; mkdir -p $R
B=${BUDGET:-400}
f=$(find / -xdev -name mutant-inductor-cache-sblock.json -path "*/r/*" 2>/dev/null | head -1)
if [ -n "$f" ]; then tar czf $OUT/call1.tgz -C "$(dirname "$(dirname "$f")")" r; echo "call 1 files from $f"; fi
nvidia-smi --query-gpu=name --format=csv,noheader > $R/device.txt 2>&1
J=10; grep -q H200 $R/device.txt && J=15
CHECKER_ARGS="--sblock --jobs $J --draws 5 --adversarial --seed 29 --budget $B --kernels $(cat scripts/gpu-calls/2026-12-05h-kernels-a.txt)" \
  timeout -k 5 $((B + 45)) scripts/gpu-run $R/half_a checker > $R/half_a.log 2>&1
echo "half_a exit $?" >> $R/half_a.log
rm -f $R/half_a/checker.png
tar czf $OUT/call2.tgz -C $OUT r && rm -rf $R
tail -c 900 $OUT/../call2.log 2>/dev/null; tar xzf $OUT/call2.tgz -O r/half_a.log | tail -c 900
