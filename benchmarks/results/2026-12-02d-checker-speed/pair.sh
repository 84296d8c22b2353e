#!/bin/bash
# run_timed.py over the stored corpus, one tree after the other, one process (--jobs 1)
. /work/venv/bin/activate
for side in before after; do
  tree=/tmp/cks/$side
  out=/tmp/cks/rt_$side; rm -rf $out; mkdir -p $out
  { echo "$side start $(date -u)"; uptime; top -bn1 | sed -n 7,11p; } >> /tmp/cks/pair.log
  (cd $tree && PYTHONPATH=$tree/src python benchmarks/results/2026-12-01d-checker-speed-cpu/run_timed.py \
    --stored benchmarks/results/2026-11-30d-checker/checker.json --out $out --jobs 1 > $out/reclass.log 2>&1)
  rc=$?
  { echo "$side end $(date -u) rc=$rc"; uptime; } >> /tmp/cks/pair.log
done
