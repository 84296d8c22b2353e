#!/bin/bash
# run_timed.py over the stored corpus, before then after, back to back; load recorded around each
. /work/venv/bin/activate
cd /work/main
for side in before after; do
  out=/tmp/ck2/rt_$side; rm -rf $out; mkdir -p $out
  { echo "$side start $(date -u)"; uptime; top -bn1 | sed -n 7,12p; } >> /tmp/ck2/pair.log
  PYTHONPATH=/tmp/ck2/$side/src python benchmarks/results/2026-12-01d-checker-speed-cpu/run_timed.py \
    --stored benchmarks/results/2026-11-30d-checker/checker.json --out $out --jobs 1 > $out/reclass.log 2>&1
  { echo "$side end $(date -u) rc=$?"; uptime; } >> /tmp/ck2/pair.log
done
# before2 (the third run, ABA): the same with SIDES=before and out=/tmp/ck2/rt_before2
