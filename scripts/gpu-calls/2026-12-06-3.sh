#!/usr/bin/env bash
# 2026-12-06 call 3 (issue 5), the tree of call 1: mutant-sblock-gate, the super-block gate's planted fault (a
# super-block's class hashed from its addresses and guards, not its trees; copied tree): checker_gate --sblock must
# find wrong merges, as call 1's gate over half b found none. One archive. Any sm_90 card; about 2 min.
#   bash scripts/gpu-calls/2026-12-06-3.sh      (carry [".whl"], benchmarks/results moved out)
set -u
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name --format=csv,noheader > $R/device.txt 2>&1
timeout -k 5 150 scripts/gpu-run $R mutant-sblock-gate > $R/mutant.log 2>&1
echo "mutant exit $?" >> $R/mutant.log
rm -f $R/mutant-sblock-gate/checker.png
tar czf $OUT/sblock_fault.tgz -C $OUT r && rm -rf $R
tar xzf $OUT/sblock_fault.tgz -O r/mutant.log | grep -E "wrong_merges|nonzero|exit" | cut -c1-300 | tail -6
