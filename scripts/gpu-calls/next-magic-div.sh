#!/usr/bin/env bash
# 2026-12-04c: the branch magic-div was lost with a try whose commits did not land; this script waits for the rule to be
# rebuilt (docs/gpu.md, 2026-12-04c plan). It refuses any tree without check/integers.py's _magic_division.
# Prepared 2026-12-04b (issue 5): the soundness gate for branch magic-div (division by a constant read back as floor
# division, check/integers.py's _magic_division). The rule renames addresses in every kernel that divides by a
# constant, so the gate is the whole corpus with --grid, as 2026-12-03g calls 1-5 ran it (5 wide + adversarial
# draws, 15 workers), in four parts: about 20 device minutes with the cold start. Run from a checkout of the branch (`git checkout magic-div`; the script refuses
# another tree) and move benchmarks/results out first (64 MiB).
#   PART=1 bash scripts/gpu-calls/next-magic-div.sh   the pinned kernels and their twins, then mutant-checker on
#                                                      row_max_f16 / row_max_bf16 (~5.5 min; 2026-12-03g: 227 s)
#   PART=2 ...                                         the 21 TorchInductor kernels (the gpt2_mlp poi2 grids the rule
#                                                      changes: 9 -> 4 classes on the CPU), long walks (~4.5 min; 256 s)
#   PART=3 ...                                         the row-width and scan-width kernels, swiglu, gelu_tanh (~6.5 min; 361 s)
#   PART=4 ...                                         every other corpus kernel (~3 min; 161 s)
# The parts' checker.json files join with benchmarks/checker_union.py; 0 wrong merges over all four is the gate.
set -u
grep -q "_magic_division" src/bitorder/check/integers.py || { echo "not the magic-div tree"; exit 2; }
R=$OUT/r; mkdir -p $R
timeout -k 5 40 scripts/gpu-run $R report > /dev/null 2>&1          # installs the nvmath wheel into /tmp/site
pick() { PYTHONPATH=src python3 -c "
import re, sys; sys.path.insert(0, 'benchmarks'); from corpus import SPECS
wide = lambda k: re.search(r'_c(64|128|1024|2048)(_|$)', k) or k.startswith(('swiglu', 'gelu_tanh'))
print(','.join(k for k in SPECS if $1))"; }
G="--jobs 15 --draws 5 --adversarial --grid"
case ${PART:?} in
  1) CHECKER_ARGS="$G --budget 300 --kernels $(pick "k.startswith('pinned_')")" \
       timeout -k 5 330 scripts/gpu-run $R/pinned checker | tail -3
     MUTANT_KERNELS=row_max_f16,row_max_bf16 timeout -k 5 120 scripts/gpu-run $R mutant-checker | tail -5 ;;
  2) CHECKER_ARGS="$G --steps 200000 --nodes 20000000 --budget 320 --kernels inductor_" \
       timeout -k 5 350 scripts/gpu-run $R/inductor checker | tail -3 ;;
  3) CHECKER_ARGS="$G --budget 480 --kernels $(pick "wide(k)")" timeout -k 5 530 scripts/gpu-run $R/wide checker | tail -3 ;;
  4) CHECKER_ARGS="$G --budget 480 --kernels $(pick "not k.startswith(('inductor_', 'pinned_')) and not wide(k)")" \
       timeout -k 5 530 scripts/gpu-run $R/rest checker | tail -3 ;;
  *) echo "PART is 1, 2, 3 or 4"; exit 2 ;;
esac
