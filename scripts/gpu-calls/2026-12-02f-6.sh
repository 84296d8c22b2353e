#!/usr/bin/env bash
# 2026-12-02f call 6 (issue 3, ~4 min): the gate's one mismatch (call 2: fp16 5578x376x2 tt, algorithm 23 split 2
# reduction scheme 4, planned as the plain chain; the wide draw's 53 / 67 / 85 differing outputs are exactly the
# plain chain's -0.0 outputs on the CPU) read as an empty partition's +0 partial merged into output-type partials
# (epilogue step add_zero, cublas/profile.py). Ground: 600 designed calls (fp16/bf16, four layouts, K 1-24, five
# M x N) and 150 near the mismatched case, three fresh draws each, defaults only; the summary counts the calls
# planned with add_zero (desc:add_zero). Then its planted fault (add_zero never planned, copied tree): must mismatch.
set -u
R=$OUT/r; mkdir -p $R
pack() { tar czf $OUT/results.tgz -C $OUT r; }
g() { grep -v '^ ' | grep -v UserWarning | grep -v '^\[' | tail -${1:-6}; }
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the wheel once
unset BITORDER_UNVERIFIED
C=benchmarks/results/2026-12-02f-gpu/call6/cases.json
GATE_ARGS="--jobs 12 --budget 120 --seed 20261871 --rerun $C --name addzero" timeout -k 5 160 scripts/gpu-run $R gate | g 8
cp $R/gate.log $R/addzero.log; pack
export PYTHONPATH=src:/tmp/site
mkdir -p $R/mutant
timeout -k 5 170 scripts/mutant-run src/bitorder/cublas/profile.py '("round",) + (("add_zero",) if empty_parts else ())' \
  '("round",)' -- python3 benchmarks/gate_gemm.py --out $R/mutant --jobs 12 --budget 120 --seed 20261872 --rerun $C \
  --name mutant_addzero > $R/mutant.log 2>&1; echo "mutant-addzero exit $? (0: the fault was caught)"
grep -E '^(mutant|imports)' $R/mutant.log; grep -c MISMATCH $R/mutant.log; tail -3 $R/mutant.log | cut -c1-300; pack
