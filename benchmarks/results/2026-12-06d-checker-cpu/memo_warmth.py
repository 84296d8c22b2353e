"""How much of a walk is hashing new nodes: each configuration of a kernel walked once with every memo of the
checker emptied first (cold) and once right after its num_warps twin was walked (warm: the twin made the same
trees, so make's memo answers), same process. Prints CPU-seconds per configuration.

    PYTHONPATH=src python memo_warmth.py KERNEL [N]
"""
import importlib
import pickle
import sys
import time

from bitorder import check

S = importlib.import_module("bitorder.check.signature")
Y = importlib.import_module("bitorder.check.symbolic")


class C:
    def __init__(self, asm):
        self.asm = asm


def cold():
    for memo in (S._MEMO, Y._SEEN, Y._SEEN_OLD, Y._ONCE_SEEN):
        memo.clear()


def timed(asm):
    S._MEMO.clear()     # the answer memos: every call walks
    S._BY_TEXT.clear()
    t0 = time.process_time()
    check.signature(C(asm))
    return time.process_time() - t0


name, n = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 8
recs = [r for r in pickle.load(open(f"/tmp/ckd/all/{name}.pkl", "rb")) if r[4] is not None]
texts = {}
for r in recs:
    texts.setdefault(r[4]["ptx"], r)
recs = list(texts.values())[:n]
tc = tw = 0.0
for i in range(1, len(recs)):
    cold()
    c = timed(recs[i][4])
    cold()
    timed(recs[i - 1][4])
    w = timed(recs[i][4])
    tc, tw = tc + c, tw + w
    print(f"{recs[i][2][:55]:55s} cold {c:6.2f}s  after the previous configuration {w:6.2f}s")
print(f"total cold {tc:.2f}s, warm {tw:.2f}s, x{tc / tw:.2f}")
