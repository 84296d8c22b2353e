"""The checker against pairs whose answer is known: a soundness gate that runs on the CPU.

'differ' pairs are free-order row sums over num_warps 1, 2, 4 and 8, whose outputs the H200
showed to take 4 distinct byte patterns (benchmarks/results/2026-11-29-survey/report.txt):
calling any of them equivalent is a wrong merge. 'same' pairs differ only in num_stages
on a kernel with no loop (one program). Prints wrong merges; exits nonzero if any.
"""
import itertools
import sys

import bitorder
from bitorder import check
from bitorder.compiler.demo import ROW_SUM_SIGNATURE, row_sum

print(f"bitorder from {bitorder.__file__}")
k = {w: bitorder.compile(row_sum, "sm90", signature=ROW_SUM_SIGNATURE, constexprs={"BLOCK": 1024}, num_warps=w)
     for w in (1, 2, 4, 8)}
wrong = 0
for a, b in itertools.combinations(k, 2):
    if check.equivalent(k[a], k[b]):
        wrong += 1
        print(f"WRONG MERGE: free-order row sums with num_warps {a} and {b} give different bytes on the H200")
s1 = bitorder.compile(row_sum, "sm90", signature=ROW_SUM_SIGNATURE, constexprs={"BLOCK": 1024}, num_warps=4,
                      num_stages=1)
split = 0 if check.equivalent(k[4], s1) else 1
print(f"{wrong} wrong merges, {split} needless splits")
sys.exit(1 if wrong else 0)
