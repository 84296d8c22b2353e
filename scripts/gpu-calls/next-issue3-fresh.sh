#!/usr/bin/env bash
# Prepared 2026-12-02d for a next session (issue 3, ~4 min): where fallbacks remain on fresh seeds now that gemv
# options 53/59 are verified (2026-12-02d). A census (plans only, the gate's 45,120 cases) of four seeds never
# gated, each ~50 s; then the non-tail fallbacks of all four (fallback_cases.py without --algo: every fallback
# but the named cuBLAS defects) rerun as a gate on three fresh draws, so that the count in the results is of
# calls that really go to cuBLAS and whose bytes are still identical. The whole gate on a fresh seed (~9 min,
# scripts/gpu-calls/2026-12-02b-2.sh with a new seed) is the call after, if this finds 0 non-tail fallbacks.
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
g() { grep -v '^ ' | grep -v UserWarning | grep -v '^\[' | tail -${1:-6}; }
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the wheel once
export PYTHONPATH=src:/tmp/site
for s in 20261841 20261842 20261843 20261844; do
  CENSUS_ARGS="--seed $s --name census-$s" timeout -k 5 60 scripts/gpu-run $R census | g 1; cp $R/census.log $R/census-$s.log
done
gzip -f $R/census-*.json; pack
python3 benchmarks/fallback_cases.py $R/fb.json $R/census-2026184[1-4].json.gz
BITORDER_UNVERIFIED=0 GATE_ARGS="--jobs 12 --budget 60 --retry-oom 5 --seed 20261845 --rerun $R/fb.json --name fallbacks-fresh" \
  timeout -k 5 90 scripts/gpu-run $R gate | g 6; cp $R/gate.log $R/fallbacks-fresh.log; pack
