#!/bin/bash
# before / after / before, one process each, the same command; load recorded around each run
. /work/venv/bin/activate
cd /work/main
for side in before after before2; do
  src=/tmp/cks/before/src; [ $side = after ] && src=/tmp/cks/snap2_src
  { echo "$side start $(date -u)"; uptime; top -bn1 | sed -n 7,11p; } >> /tmp/cks/seq.log
  python benchmarks/checker_speed.py --src $src --dump /tmp/cks/dump_$side.json > /tmp/cks/run_$side.log 2>&1
  { echo "$side end $(date -u) rc=$?"; uptime; tail -1 /tmp/cks/run_$side.log; } >> /tmp/cks/seq.log
done
