#!/usr/bin/env bash
# 2026-12-06c call 6 (issue 5; call 5 ran it with mark_dynamic, which the cross-entropy loss refused: its batch specialised), the final checker (1d24370's) with inductor_cache_check.py --dynamic-batch: the four
# model pieces with only their token dimensions marked dynamic (as a server marks its batch; hidden and vocabulary
# sizes baked in), 5 token counts, every benched variant relaunched at every call: inductor-dynamic-batch and its
# planted fault (mutant-inductor-dynamic-batch: the super-block fault, copied tree). One archive. Any sm_90 card;
# about 3 min.
#   bash scripts/gpu-calls/2026-12-06c-6.sh      (carry [".whl"], benchmarks/results moved out)
set -u
R=$OUT/r; mkdir -p $R
nvidia-smi --query-gpu=name --format=csv,noheader > $R/device.txt 2>&1
timeout -k 5 400 scripts/gpu-run $R inductor-dynamic-batch mutant-inductor-dynamic-batch > $R/run.log 2>&1
echo "run exit $?" >> $R/run.log
tar czf $OUT/call6.tgz -C $OUT r && rm -rf $R
tar xzf $OUT/call6.tgz -O r/run.log | grep -E "^=== |imports|exit" | cut -c1-300 | tail -20
