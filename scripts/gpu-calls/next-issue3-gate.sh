#!/usr/bin/env bash
# Prepared 2026-12-02g for a next session (issue 3, two calls of ~9.5 min): the whole fp16/bf16 gate (45,120 cases) on
# one final tree, fresh seed, split in two halves by --slice so that neither runs out of budget (2026-12-02g call 3:
# the H100 reached 44,269 of 45,120 in 500 s at 14 workers). Run both halves on the same tree and, if the tool allows,
# the same card: `HALF=1 SEED=... bash next-issue3-gate.sh`, then `HALF=2 SEED=...` (the same SEED); the two JSONs add up.
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the wheel once
unset BITORDER_UNVERIFIED
case ${HALF:?} in 1) S=0:22560 ;; 2) S=22560: ;; *) echo "HALF is 1 or 2"; exit 2 ;; esac
GATE_ARGS="--jobs 14 --budget 520 --retry-oom 25 --seed ${SEED:?} --slice $S --name gate-half$HALF" \
  timeout -k 5 560 scripts/gpu-run $R gate | grep -v '^ ' | grep -v UserWarning | grep -v '^\[' | tail -14; pack
