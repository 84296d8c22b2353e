#!/usr/bin/env bash
# Prepared 2026-12-04 for the next session (issue 6's speed floor): BITORDER_FP8_WS_TILES=1 (fp8.ws_tile's one-wave
# Gluon tiles, pure chains on the Gluon kernel) measured against the default on the same realistic calls, then the
# fp8 gate's cases the switch changes, with it on (what making it the default needs). Move benchmarks/results out first (64 MiB).
#   PART=1 bash scripts/gpu-calls/next-fp8-tiles.sh            GPU tests of test_fp8_gluon.py (the switch's test
#                                                                included), bench_fp8 on calls 0:360 of the shuffled
#                                                                realistic set with the switch off, then on (~9.5 min:
#                                                                16 GPU tests, then 140 s of bench each)
#   PART=2 SEED=<fresh> bash ...                                the fp8 gate with the switch on, on the 17,511 of its
#                                                                63,312 cases where fp8.ws_tile names a tile (~4.5 min;
#                                                                elsewhere the switch changes nothing: fp8.run takes the
#                                                                path the 2026-12-04 gate ran), then its planted fault
#                                                                (mutant-fp8-ws: 400 fast cases, must fail; ~1 min)
#   PART=3 [TILES=1] bash ...                                   the whole realistic set (1,104 calls), CUDA graphs only
#                                                                (bench_fp8 --graphs-only; ~6 min), with the switch on
#                                                                if TILES=1: the floor measured on the set, not a sample
#   PART=5 bash ...                                             the persistent Gluon kernel (run_ws(persistent=True),
#                                                                not used by fp8.run) at the tiles fp8_ws_tiles.py
#                                                                times, against fp8.run's default (~3 min)
set -u
O=$OUT; S=/tmp/fp8tiles; R=$S/r; mkdir -p $R
g() { grep -v '^ ' | grep -v UserWarning | grep -v '^\[' | tail -${1:-8}; }
pack() { tar czf $O/part${PART:?}.tgz -C $S r; }
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the nvmath wheel into /tmp/site
case ${PART:?} in
  1) PYTHONPATH=$PWD/src:/tmp/site timeout -k 5 170 python3 -m pytest -q -m gpu tests/gemm/test_fp8_gluon.py \
       > $R/pytest-gpu.log 2>&1; tail -3 $R/pytest-gpu.log; pack
     FP8_BENCH_ARGS="--budget 140 --slice 0:360 --graphs-only" timeout -k 5 170 scripts/gpu-run $R/bench-default fp8bench | g 3; pack
     BITORDER_FP8_WS_TILES=1 FP8_BENCH_ARGS="--budget 140 --slice 0:360 --graphs-only" timeout -k 5 170 \
       scripts/gpu-run $R/bench-tiles fp8bench | g 3
     python3 benchmarks/compare_bench.py $R/bench-default/bench_fp8.json $R/bench-tiles/bench_fp8.json \
       --json $R/compare.json | tail -14; pack ;;
  2) BITORDER_FP8_WS_TILES=1 FP8_GATE_ARGS="--jobs 14 --budget 400 --retry-oom 20 --seed ${SEED:?} --ws-tiles-only \
       --name gate_fp8-tiles" timeout -k 10 440 scripts/gpu-run $R/gate fp8gate | g 8; pack
     BITORDER_FP8_WS_TILES=1 FP8_GATE_ARGS="--jobs 14" timeout -k 5 90 scripts/gpu-run $R/mutant mutant-fp8-ws | g 3; pack ;;
  3) BITORDER_FP8_WS_TILES=${TILES:-} FP8_BENCH_ARGS="--budget 480 --graphs-only" timeout -k 5 520 \
       scripts/gpu-run $R/bench-set fp8bench | g 3; pack ;;
  5) FP8_WS_TILES_PERSISTENT=1 PYTHONPATH=$PWD/src:/tmp/site timeout -k 5 200 python3 benchmarks/fp8_ws_tiles.py \
       --out $R/tiles --budget 150 > $R/tiles-persistent.log 2>&1; grep -v '^ ' $R/tiles-persistent.log | tail -40; pack ;;
  *) echo "PART is 1, 2, 3 or 5"; exit 2 ;;
esac
