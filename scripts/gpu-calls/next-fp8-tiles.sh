#!/usr/bin/env bash
# Prepared 2026-12-04 for the next session (issue 6's speed floor): BITORDER_FP8_WS_TILES=1 (fp8.ws_tile's one-wave
# Gluon tiles, pure chains on the Gluon kernel) measured against the default on the same realistic calls, then the
# whole fp8 gate with the switch on (what making it the default needs). Move benchmarks/results out first (64 MiB).
#   PART=1 bash scripts/gpu-calls/next-fp8-tiles.sh            GPU tests of test_fp8_gluon.py (the switch's test
#                                                                included), bench_fp8 on calls 0:360 of the shuffled
#                                                                realistic set with the switch off, then on (~9.5 min:
#                                                                16 GPU tests, then 140 s of bench each)
#   PART=2|3|4 SEED=<fresh> bash ...                            the fp8 gate in thirds with the switch on (~5.5 min each)
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
     FP8_BENCH_ARGS="--budget 140 --slice 0:360" timeout -k 5 170 scripts/gpu-run $R/bench-default fp8bench | g 3; pack
     BITORDER_FP8_WS_TILES=1 FP8_BENCH_ARGS="--budget 140 --slice 0:360" timeout -k 5 170 \
       scripts/gpu-run $R/bench-tiles fp8bench | g 3
     python3 benchmarks/compare_bench.py $R/bench-default/bench_fp8.json $R/bench-tiles/bench_fp8.json \
       --json $R/compare.json | tail -14; pack ;;
  2|3|4) S3=$(( (PART - 2) * 21104 )):$([ "$PART" = 4 ] || echo $(( (PART - 1) * 21104 )))
     BITORDER_FP8_WS_TILES=1 FP8_GATE_ARGS="--jobs 14 --budget 320 --retry-oom 20 --seed ${SEED:?} --slice $S3 \
       --name gate_fp8-tiles-$PART" timeout -k 10 350 scripts/gpu-run $R/gate fp8gate | g 8; pack ;;
  5) FP8_WS_TILES_PERSISTENT=1 PYTHONPATH=$PWD/src:/tmp/site timeout -k 5 200 python3 benchmarks/fp8_ws_tiles.py \
       --out $R/tiles --budget 150 > $R/tiles-persistent.log 2>&1; grep -v '^ ' $R/tiles-persistent.log | tail -40; pack ;;
  *) echo "PART is 1 to 5"; exit 2 ;;
esac
