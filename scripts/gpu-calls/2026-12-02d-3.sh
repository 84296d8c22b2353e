#!/usr/bin/env bash
# Prepared 2026-12-02c for a next session (issue 3, ~4 min): the ground check of the 2026-12-02c gemv candidates
# (option 53 fp16 8 lanes chunk 1 to K 178; option 59 bf16 4 lanes chunk 1 to K 124, F.linear N = 1 with a bias at
# beta = 1; fitted from benchmarks/results/2026-12-02c-gpu/call4/gemv-probe): shapes near the 75 probed calls
# (benchmarks/neighbors.py), their census (plans only, candidates off: they fall back), the calls whose answers
# are those keys within the K read, rerun under BITORDER_UNVERIFIED=1 on three fresh draws each; then the
# planted fault mutant-probed-i (53 as 4 lanes, 59 as 8) over the same calls, which must fail.
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
g() { grep -v '^ ' | grep -v UserWarning | grep -v '^\[' | tail -${1:-6}; }
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the wheel once
export PYTHONPATH=src:/tmp/site
python3 benchmarks/neighbors.py $R/near13.json benchmarks/results/2026-12-02c-gpu/call4/left13.json --per 20 --seed 20261830
CENSUS_ARGS="--rerun $R/near13.json --budget 40 --name census-near13" timeout -k 5 60 scripts/gpu-run $R census | g 1
python3 benchmarks/fallback_cases.py $R/ground13.json $R/census-near13.json --algo 13 --options 53,59
gzip -f $R/census-near13.json; pack
BITORDER_UNVERIFIED=1 GATE_ARGS="--jobs 12 --budget 90 --retry-oom 5 --seed 20261831 --rerun $R/ground13.json --name ground13" \
  timeout -k 5 120 scripts/gpu-run $R gate | g 6; cp $R/gate.log $R/ground13.log; pack
BITORDER_UNVERIFIED=1 GATE_ARGS="--jobs 12 --budget 60 --retry-oom 5 --seed 20261832 --rerun $R/ground13.json" \
  timeout -k 5 90 scripts/gpu-run $R mutant-probed-i | g 4; pack
#!/usr/bin/env bash
# Prepared 2026-12-02c for a next session (issue 3, ~2.5 min): a survey (kernels, answers, walks, sampled bits) of
# algorithm 41's run-time splits past one K tile: the 35 calls of 2026-12-02c's ground41 that differed from the
# unsplit reading (fp16 nt, 128x128 tiles, K 1,944-2,286; benchmarks/results/2026-12-02c-gpu/call4/ground41.json).
# 2026-12-02c's survey reached only algorithm-42 calls (budget); the segment-K candidate fitted for 42 (one wave
# of 132 tiles plain, left-over tiles split along K: bitorder.cublas.segment_k) is the reading to test on these
# records on the CPU afterwards (`benchmarks/fit_segment_k.py` with 41's 128-row tiles).
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the wheel once
SURVEY_ARGS="--cases benchmarks/results/2026-12-02c-gpu/call4/ground41.json --budget 100 --name survey-41" \
  timeout -k 5 120 scripts/gpu-run $R survey | grep -v '^ ' | tail -3; pack
