#!/usr/bin/env bash
# Prepared 2026-12-03h for the next session (issue 6, three calls of ~8-9 min): everything issue 6 still needs, on
# one tree (the Gluon promoting kernel, fp8.run's default since 2026-12-03h). Move benchmarks/results out of the
# working tree for each call (the run tool carries 64 MiB) and back after.
#   PART=1 SEED=<fresh> bash scripts/gpu-calls/next-fp8-final.sh   GPU tests of tests/gemm (fp8 + Gluon), the planted
#                                                                   fault, gate third 1
#   PART=2 SEED=<same>  ...                                         gate third 2
#   PART=3 SEED=<same>  ...                                         gate third 3, the realistic set (budget 120 s)
# The three gate JSONs add up (same seed, same tree); bench_fp8.json has the speed and its plot.
set -u
O=$OUT; S=/tmp/fp8final; R=$S/r; mkdir -p $R
g() { grep -v '^ ' | grep -v UserWarning | grep -v '^\[' | tail -${1:-8}; }
pack() { tar czf $O/part${PART:?}.tgz -C $S r; }
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the nvmath wheel
case ${PART:?} in
  1) PYTHONPATH=$PWD/src timeout -k 5 90 python3 -m pytest -q -m gpu tests/gemm/test_fp8_gluon.py tests/gemm/test_fp8.py \
       > $R/pytest-gpu.log 2>&1; tail -3 $R/pytest-gpu.log; pack
     timeout -k 5 80 scripts/gpu-run $R/mutant mutant-fp8 | g 3; pack
     S3=0:21104 ;;
  2) S3=21104:42208 ;;
  3) S3=42208: ;;
  *) echo "PART is 1, 2 or 3"; exit 2 ;;
esac
FP8_GATE_ARGS="--jobs 14 --budget 320 --retry-oom 20 --seed ${SEED:?} --slice $S3 --name gate_fp8-$PART" \
  timeout -k 10 350 scripts/gpu-run $R/gate fp8gate | g 8; pack
if [ "$PART" = 3 ]; then
  BITORDER_UNVERIFIED=1 FP8_BENCH_ARGS="--budget 120" timeout -k 5 150 scripts/gpu-run $R/bench fp8bench | g 3; pack
fi
