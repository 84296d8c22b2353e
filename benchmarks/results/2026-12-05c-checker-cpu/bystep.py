"""Wall time of the walk by opcode (cvt and mov by full opcode), every Kth configuration of the kernels named:
    python3 bystep.py k1,k2,... K     (from the repository root; stored PTX in /tmp/ckd/all)"""
import sys, pickle, collections, time
sys.path.insert(0, 'src')
from bitorder import check
from bitorder.check import dataflow
acc = collections.Counter(); cnt = collections.Counter()
orig = dataflow._Block.step
pt = time.perf_counter
def step(self, ins):
    t0 = pt()
    try:
        return orig(self, ins)
    finally:
        k = (ins.opcode if ins.opcode.startswith(('cvt','mov')) else ins.opcode.split('.')[0] + ('.x2' if 'x2' in ins.opcode else '')) + ('.g' if ins.guard else '')
        acc[k] += pt() - t0; cnt[k] += 1
dataflow._Block.step = step
class C:
    def __init__(s, a): s.asm = a
t0 = time.process_time()
for k in sys.argv[1].split(','):
    for r in pickle.load(open(f'/tmp/ckd/all/{k}.pkl', 'rb'))[::int(sys.argv[2])]:
        if r[4] is not None: check.signature(C(r[4]))
tot = time.process_time() - t0
print('total', tot, 'in steps', sum(acc.values()))
for k, v in acc.most_common(25): print(f'{k:14s} {v:7.2f} {cnt[k]:7d} {v/cnt[k]*1e3:7.2f}ms')
