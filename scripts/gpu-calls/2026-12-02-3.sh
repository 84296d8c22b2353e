#!/usr/bin/env bash
# 2026-12-02 call 3 (~4 min; issue 3): records for the CPU fit of what call 2's census of shapes near the fallbacks
# still sends to cuBLAS: a designed gemv probe of the algorithm-13 keys without an order (batched dots of options
# 10, 92, 93, 100, 106; option 107 bf16; up to 12 calls a key spread over K) and a survey (kernels, answers, walks,
# sampled bits) of algorithm 21's scheme-1 splits at 64x6 and the run-time splits of algorithms 41 / 42.
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
g() { grep -v '^ ' | grep -v UserWarning | grep -v '^\[' | tail -${1:-6}; }
D=benchmarks/results/2026-12-02-cases
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the wheel once
export PYTHONPATH=src:/tmp/site
timeout -k 5 110 python3 -m bitorder probe gemv --cases $D/gemv-left.json --out $R/gemv-probe --budget 95 > $R/gemv-probe.log 2>&1
tail -3 $R/gemv-probe.log; gzip -f $R/gemv-probe/probe_gemv.json; pack
SURVEY_ARGS="--cases $D/survey-21-41-42.json --budget 90 --name survey-21-41-42" timeout -k 5 105 scripts/gpu-run $R survey | g 3; pack
