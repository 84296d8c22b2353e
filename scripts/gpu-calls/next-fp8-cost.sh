#!/usr/bin/env bash
# Prepared 2026-12-04b for the next session (issue 6: slow:qkv at 0.798x above 5 GFLOP on the whole realistic set,
# benchmarks/results/2026-12-04b-gpu). A cost per promoting tile, fitted on the H200, then the rule it gives gated
# and the whole set timed again. Move benchmarks/results out first (64 MiB; no part reads it).
#   PART=1 bash scripts/gpu-calls/next-fp8-cost.sh    the GPU tests of test_fp8_gluon.py (persistent 32-column tiles
#                                                      included), then fp8_ws_sweep.py on the 56 promoting shapes of
#                                                      benchmarks/fp8_ws_sweep_shapes.json (36 slowest of the whole
#                                                      set, 20 spread over the rest, interleaved): 8 tiles (6
#                                                      persistent, 2 one-consumer at maxnreg 168, two programs an SM)
#                                                      + the default, bytes against torch (~8 min)
#   then on the CPU: python3 benchmarks/fit_ws_tiles.py <part1>/sweep/fp8_ws_sweep.json --json fit.json; if the rule
#   beats the default on leave-one-out, put its table in fp8.WS_PROMOTING_COST (tests name the shapes), commit
#   PART=2 SEED=<fresh> bash ...                      the fp8 gate on the promoting cases the table changes
#                                                      (--ws-cost-changed), then mutant-fp8-persistent (~6 min)
#   PART=3 bash ...  /  PART=4 bash ...               the whole realistic set, calls 0:552 / 552:1104, CUDA graphs
#                                                      only (~5.5 min each; a budget cut leaves a tail for a short call); join with bench_fp8.py --merge (CPU)
set -u
R=$OUT/r; mkdir -p $R
g() { grep -v '^ ' | grep -v UserWarning | grep -v '^\[' | tail -${1:-8}; }
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the nvmath wheel into /tmp/site
case ${PART:?} in
  1) PYTHONPATH=$PWD/src:/tmp/site timeout -k 5 150 python3 -m pytest -q -m gpu tests/gemm/test_fp8_gluon.py \
       > $R/pytest-gpu.log 2>&1; tail -3 $R/pytest-gpu.log
     PYTHONPATH=$PWD/src:/tmp/site timeout -k 5 380 python3 benchmarks/fp8_ws_sweep.py \
       --from benchmarks/fp8_ws_sweep_shapes.json --out $R/sweep --budget 330 > $R/sweep.log 2>&1
     grep -v '^ ' $R/sweep.log | tail -30 ;;
  2) FP8_GATE_ARGS="--jobs 14 --budget 330 --retry-oom 20 --seed ${SEED:?} --ws-cost-changed --accum slow \
       --name gate_fp8-cost" timeout -k 10 370 scripts/gpu-run $R/gate fp8gate | g 6
     FP8_GATE_ARGS="--jobs 14" timeout -k 5 90 scripts/gpu-run $R/mutant mutant-fp8-persistent | g 3 ;;
  3) FP8_BENCH_ARGS="--budget 360 --slice 0:552 --graphs-only" timeout -k 5 400 scripts/gpu-run $R/bench fp8bench | g 3 ;;
  4) FP8_BENCH_ARGS="--budget 360 --slice 552:1104 --graphs-only" timeout -k 5 400 scripts/gpu-run $R/bench fp8bench | g 3 ;;
  *) echo "PART is 1, 2, 3 or 4"; exit 2 ;;
esac
