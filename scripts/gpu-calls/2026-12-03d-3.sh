#!/usr/bin/env bash
# 2026-12-03d call 3 (issues 3 and 5, ~6 min, H200, fired right after call 2 on the warm machine): (a) third 1 of the
# whole fp16/bf16 gate on this tree (the dot and batched-gemv bounds of 0b6b42c / ab76d5e), fresh seed 20262310;
# (b) the checker's planted fault (tree keys that forget their operands, copied tree) on two Inductor kernels, as
# 2026-12-02f call 7 ran it, so that call 2's Inductor gate has its fault on this tree.
#   bash scripts/gpu-calls/2026-12-03d-3.sh      (carry [".whl"])
set -u
O=$OUT; S=/tmp/o3; R=$S/r; mkdir -p $R/mutant
pack() { tar czf $O/call3.tgz -C $S r; }
SKIP_REPORT=1 THIRD=1 SEED=20262310 GATE_BUDGET=230 STAGE=$S/gate OUT=$S/gate-out bash scripts/gpu-calls/next-issue3-gate.sh
cp -r $S/gate/r $R/gate; pack
export PYTHONPATH=src:/tmp/site
timeout -k 5 60 scripts/mutant-run src/bitorder/check/symbolic.py "kids = sorted(kids)" "kids = [str(len(kids))]" \
  -- python3 benchmarks/checker_gate.py --out $R/mutant --gpu --kernels inductor_gpt2_mlp_t8_per0,inductor_cross_entropy_t512_red0 \
  --sample 32 --draws 2 > $R/mutant.log 2>&1; echo "mutant-checker exit $? (0: the fault was caught)"; tail -2 $R/mutant.log | cut -c1-600; pack
