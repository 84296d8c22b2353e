#!/usr/bin/env bash
# Prepared 2026-12-02g for a next session (issue 3, two calls of ~9.5 min): the whole fp16/bf16 gate (45,120 cases) on
# one final tree, fresh seed, split in two halves by --slice so that neither runs out of budget (2026-12-02g call 3:
# the H100 reached 44,269 of 45,120 in 500 s at 14 workers). Run both halves on the same tree and, if the tool allows,
# the same card: `HALF=1 SEED=... bash next-issue3-gate.sh`, then `HALF=2 SEED=...` (the same SEED); the two JSONs add up.
set -u
# STAGE (a folder off $OUT): where the case files go; only results.tgz lands under $OUT (the device tool drops
# files past a count, 2026-12-03 call 1). Unset: under $OUT, as the dated calls before 2026-12-03b ran it.
R=${STAGE:-$OUT}/r; mkdir -p $R $OUT
pack() { tar czf $OUT/results.tgz -C ${STAGE:-$OUT} r; }
[ -n "${SKIP_REPORT:-}" ] || timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1   # installs the wheel once
unset BITORDER_UNVERIFIED
# THIRD=1|2|3 (2026-12-03b: ~180 s each, so a third fits beside other work in one call) or HALF=1|2 (~265 s each)
if [ -n "${THIRD:-}" ]; then
  case $THIRD in 1) S=0:15040 ;; 2) S=15040:30080 ;; 3) S=30080: ;; *) echo "THIRD is 1, 2 or 3"; exit 2 ;; esac
  N=gate-third$THIRD; B=${GATE_BUDGET:-250}
else
  case ${HALF:?} in 1) S=0:22560 ;; 2) S=22560: ;; *) echo "HALF is 1 or 2"; exit 2 ;; esac
  N=gate-half$HALF; B=${GATE_BUDGET:-520}
fi
GATE_ARGS="--jobs 14 --budget $B --retry-oom 25 --seed ${SEED:?} --slice $S --name $N" \
  timeout -k 5 $((B + 40)) scripts/gpu-run $R gate | grep -v '^ ' | grep -v UserWarning | grep -v '^\[' | tail -14; pack
