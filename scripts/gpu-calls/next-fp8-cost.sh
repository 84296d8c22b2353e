#!/usr/bin/env bash
# Ran 2026-12-04c (calls 1-3, benchmarks/results/2026-12-04c-gpu).
# Prepared 2026-12-04b for the next session (issue 6: slow:qkv at 0.798x above 5 GFLOP on the whole realistic set,
# benchmarks/results/2026-12-04b-gpu). A cost per promoting tile, fitted on the H200, then the rule it gives gated
# and the whole set timed again. Move benchmarks/results out first (64 MiB; no part reads it).
#   PART=1 bash scripts/gpu-calls/next-fp8-cost.sh    the GPU tests of test_fp8_gluon.py (persistent 32-column tiles
#                                                      included), then fp8_ws_sweep.py on the 56 promoting shapes of
#                                                      benchmarks/fp8_ws_sweep_shapes.json (36 slowest of the whole
#                                                      set, 20 spread over the rest, interleaved): 10 tiles (6
#                                                      persistent, 2 one-consumer at maxnreg 168, two programs an SM,
#                                                      2 of 144 and 80 columns: chain8_ws2_kernel) + the default, bytes
#                                                      against torch (~8.5 min); the GPU tests include the 144-column
#                                                      tile against one-block tiles, and its planted fault
#                                                      (mutant-fp8-extra) must fail them
#   then on the CPU: python3 benchmarks/fit_ws_tiles.py <part1>/sweep/fp8_ws_sweep.json --json fit.json; if the rule
#   beats the default on leave-one-out, put its table in fp8.WS_PROMOTING_COST (tests name the shapes), commit
#   PART=2 SEED=<fresh> bash ...                      the fp8 gate on the promoting cases the table changes
#                                                      (--ws-cost-changed --accum slow: ~29,600 of the 31,656 with a
#                                                      plausible table; the slow half took two ~4-min calls on
#                                                      2026-12-03h), budget 440 s, then mutant-fp8-persistent; if the
#                                                      gate's not_reached is nonzero, PART=2 SEED=<same> FROM=<run>
#                                                      runs the rest (--slice FROM:)
#   PART=3 bash ...                                   every promoting call of the realistic set (bench_fp8 --accum slow,
#                                                      552 calls, ~5.5 min); the pure-chain path is unchanged, so on the
#                                                      CPU: bench_fp8.py --out DIR --merge <2026-12-04b calls 4-6>
#                                                      --replace <part3>/bench/bench_fp8.json gives the whole set
#                                                      (a budget cut at n calls: --accum slow --slice n: times the rest;
#                                                      --replace takes both runs)
#   PART=4 bash ...                                   (if two minutes are left) host time of small fp8 calls against
#                                                      torch._scaled_mm: overhead_gemm.py's fp8 part, with the Gluon
#                                                      kernel's kept launch (BITORDER_FP8_FAST_LAUNCH) timed too, and
#                                                      its GPU test (~1.5 min)
set -u
R=$OUT/r; mkdir -p $R
g() { grep -v '^ ' | grep -v UserWarning | grep -v '^\[' | tail -${1:-8}; }
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the nvmath wheel into /tmp/site
case ${PART:?} in
  1) PYTHONPATH=$PWD/src:/tmp/site timeout -k 5 180 python3 -m pytest -q -m gpu tests/gemm/test_fp8_gluon.py \
       > $R/pytest-gpu.log 2>&1; tail -3 $R/pytest-gpu.log
     timeout -k 5 60 scripts/gpu-run $R/mutant-extra mutant-fp8-extra | g 3          # must fail (copied tree)
     grep -hE "imports|strings replaced|exit code|passed|failed" $R/mutant-extra/*.log 2>/dev/null | cut -c1-300 \
       > $OUT/mutant-extra-verdict.txt
     PYTHONPATH=$PWD/src:/tmp/site timeout -k 5 305 python3 benchmarks/fp8_ws_sweep.py \
       --from benchmarks/fp8_ws_sweep_shapes.json --out $R/sweep --budget 265 > $R/sweep.log 2>&1
     grep -v '^ ' $R/sweep.log | tail -30 ;;
  2) FP8_GATE_ARGS="--jobs 14 --budget 440 --retry-oom 20 --seed ${SEED:?} --ws-cost-changed --accum slow \
       --slice ${FROM:-0}: --name gate_fp8-cost" timeout -k 10 475 scripts/gpu-run $R/gate fp8gate | g 6
     [ -n "${FROM:-}" ] || FP8_GATE_ARGS="--jobs 14" timeout -k 5 60 scripts/gpu-run $R/mutant mutant-fp8-persistent \
       | g 3
     # the mutant's own folder may not come back (2026-12-04b: "depth"/"count"): its verdict at the top of $OUT
     grep -hE "imports|strings replaced|exit code|MISMATCH|mismatch" $R/mutant/*.log 2>/dev/null | cut -c1-400 \
       > $OUT/mutant-verdict.txt ;;
  3) FP8_BENCH_ARGS="--budget 380 --accum slow --graphs-only" timeout -k 5 420 scripts/gpu-run $R/bench fp8bench | g 3 ;;
  4) PYTHONPATH=$PWD/src:/tmp/site timeout -k 5 60 python3 -m pytest -q -m gpu tests/gemm/test_fp8_gluon.py -k kept_gluon \
       2>&1 | tail -2
     timeout -k 5 150 scripts/gpu-run $R/overhead overhead | tail -30 ;;
  *) echo "PART is 1, 2, 3 or 4"; exit 2 ;;
esac
