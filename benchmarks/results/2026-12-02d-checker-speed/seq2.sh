#!/bin/bash
. /work/venv/bin/activate
cd /work/main
for side in before3 final2; do
  src=/tmp/cks/before/src; [ $side = final2 ] && src=/work/main/src
  { echo "$side start $(date -u)"; uptime; } >> /tmp/cks/seq2.log
  taskset -c 0 python benchmarks/checker_speed.py --src $src --dump /tmp/cks/dump_$side.json > /tmp/cks/run_$side.log 2>&1
  { echo "$side end $(date -u) rc=$?"; uptime; tail -1 /tmp/cks/run_$side.log; } >> /tmp/cks/seq2.log
done
