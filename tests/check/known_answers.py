"""The checker against pairs whose answer is known: a soundness gate that runs on the CPU.

'differ' pairs are free-order row sums over num_warps 1, 2, 4 and 8, whose outputs the H200
showed to take 4 distinct byte patterns (benchmarks/results/2026-11-29-survey/report.txt):
calling any of them equivalent, at either checker level, is a wrong merge. 'same' pairs:
num_stages on a kernel with no loop (one program), and, for v1, a pinned row sum over
num_warps (one tree by construction; the GPU confirmation is scripts/gpu-run pinned).
Prints wrong merges and needless splits; exits nonzero on any wrong merge.
"""
import itertools
import sys

import bitorder
from bitorder import check
from bitorder.compiler.demo import ROW_SUM_SIGNATURE, row_sum

print(f"bitorder from {bitorder.__file__}")


def rowsum(w, s=3, pinned=False):
    return bitorder.compile(row_sum, "sm90", signature=ROW_SUM_SIGNATURE, constexprs={"BLOCK": 1024, "PINNED": pinned},
                            num_warps=w, num_stages=s)


def v0(a, b):
    return check.canonicalize(check.parse(a.ptx)[0]).signature == check.canonicalize(check.parse(b.ptx)[0]).signature


free = {w: rowsum(w) for w in (1, 2, 4, 8)}
pinned = {w: rowsum(w, pinned=True) for w in (1, 2, 4, 8)}
wrong = 0
for a, b in itertools.combinations(free, 2):
    for name, same in (("v0", v0), ("v1", lambda x, y: bool(check.equivalent(x, y)))):
        if same(free[a], free[b]):
            wrong += 1
            print(f"WRONG MERGE ({name}): free-order row sums with num_warps {a} and {b} give different bytes on the H200")
split = 0
for name, same in (("v0", v0), ("v1", lambda x, y: bool(check.equivalent(x, y)))):
    if not same(free[4], rowsum(4, s=1)):
        split += 1
        print(f"needless split ({name}): num_stages 1 vs 3 on a loop-free kernel")
for w in (2, 4, 8):
    if not check.equivalent(pinned[1], pinned[w]):
        split += 1
        print(f"needless split (v1): pinned row sums with num_warps 1 and {w}")
print(f"{wrong} wrong merges, {split} needless splits")
sys.exit(1 if wrong else 0)
