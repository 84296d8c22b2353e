"""Per instruction kind: thread-instructions, and distinct operand tuples over the threads of a block (by value:
ints, polynomials by sorted items, predicates; node and select values by object). python distinct_operands.py SRC k1,k2
(every 4th configuration)."""
import sys, os, pickle, time, glob, collections
sys.path.insert(0, sys.argv[1])
from bitorder import check
from bitorder.check import dataflow
from bitorder.check.symbolic import _is_float_op
from bitorder.check.rules import _operand
C_ = collections.Counter()
orig = dataflow._Block.step
def step(self, ins):
    if ins.base not in ("bra", "ret", "bar") and ins.operands and not ins.base.startswith("bar"):
        try:
            srcs = [o for o in ins.operands[1:] if o.startswith("%")] if ins.base != "st" else list(ins.operands)
            cat = "float" if _is_float_op(ins.opcode) else ins.base
            if ins.guard: srcs.append(ins.guard[1])
            keys = set()
            for t in range(self.n):
                r = self.regs[t]
                keys.add(tuple((lambda v: v if v.__class__ in (int, bool) else tuple(sorted(v.items())) if v.__class__ is dict else v if v.__class__ is tuple and v[0] != "select" else id(v))(r.get(s, None)) if s in r else (s, t if s.startswith("%tid") else 0) for s in srcs))
            C_[cat + " thr"] += self.n; C_[cat + " distinct"] += len(keys)
        except Exception as e:
            pass
    return orig(self, ins)
dataflow._Block.step = step
names = sys.argv[2].split(",")
class C:
    def __init__(s, a): s.asm = a
for n in names:
    for r in pickle.load(open(f"/tmp/ckd/ptx/{n}.pkl", "rb"))[::4]:
        if r[4] is None: continue
        check.signature(C(r[4]))
for k in sorted(C_):
    if k.endswith("thr"): b = k[:-4]; print(f"{b:10s} {C_[k]:9d} {C_[b+' distinct']:9d} {C_[b+' distinct']/C_[k]:.2f}")
