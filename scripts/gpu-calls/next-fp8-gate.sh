#!/usr/bin/env bash
# Prepared 2026-12-02h for a next session (issue 6, ~5 min a call): a third of the fp8 gate the issue asks for (10,000
# fuzz shapes per (use_fast_accum, out_dtype) pair with the realistic layers: 63,312 cases, three draws each), split
# over three calls by --slice; the three JSONs add up when they ran on one tree (the gate JSON's fingerprint shows it).
# 2026-12-02h call 5 ran third 1 (seed 20261820) on tree f5d4dd1; thirds 2 and 3 last ran 2026-12-02d on an older
# fp8 tree. 2026-12-03h changed the promoting kernel (kernels_fp8_gluon, fp8.run's default), so all three thirds
# must run again on one tree: `THIRD=1|2|3 SEED=<fresh> bash next-fp8-gate.sh` (move benchmarks/results out of the
# working tree for the call: the run tool takes 64 MiB).
set -u
# STAGE (a folder off $OUT): where the case files go; only results.tgz lands under $OUT (the device tool drops
# files past a count, 2026-12-03 call 1). Unset: under $OUT, as the dated calls before 2026-12-03b ran it.
R=${STAGE:-$OUT}/r; mkdir -p $R $OUT
pack() { tar czf $OUT/results.tgz -C ${STAGE:-$OUT} r; }
case ${THIRD:?} in 1) S=0:21104 ;; 2) S=21104:42208 ;; 3) S=42208: ;; *) echo "THIRD is 1, 2 or 3"; exit 2 ;; esac
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the wheel once
FP8_GATE_ARGS="--jobs 14 --budget 420 --retry-oom 20 --seed ${SEED:?} --slice $S --name gate_fp8-$THIRD" \
  timeout -k 10 470 scripts/gpu-run $R fp8gate | grep -v '^ ' | grep -v UserWarning | tail -12; pack
