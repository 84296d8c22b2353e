#!/bin/bash
# run_timed.py over the stored corpus, one tree after the other (SIDES, default "before after"),
# one process (--jobs 1), the load recorded around each run in /tmp/ck3/pair.log.
# /tmp/ck3/before = git archive 383cb35 src/bitorder benchmarks; /tmp/ck3/after = the same with
# src/bitorder/check from `git archive <final commit> src/bitorder/check`. Each run's working
# directory is its own tree, so the harness (benchmarks/) is 383cb35's in both.
. /work/venv/bin/activate
for side in ${SIDES:-before after}; do
  tree=/tmp/ck3/${side%2}
  out=/tmp/ck3/rt_$side; rm -rf $out; mkdir -p $out
  { echo "$side start $(date -u)"; uptime; top -bn1 | sed -n 7,13p; } >> /tmp/ck3/pair.log
  (cd $tree && PYTHONPATH=$tree/src python benchmarks/results/2026-12-01d-checker-speed-cpu/run_timed.py \
    --stored benchmarks/results/2026-11-30d-checker/checker.json --out $out --jobs 1 > $out/reclass.log 2>&1)
  rc=$?
  { echo "$side end $(date -u) rc=$rc"; uptime; } >> /tmp/ck3/pair.log
done
