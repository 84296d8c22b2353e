"""Step time by whether the step leaves its destination one key per warp, one per block, or varying by thread:
    python3 uniftime.py A B    (every Ath kernel, every Bth configuration; from the repository root)"""
import sys, collections, time
sys.path.insert(0, 'src')
from bitorder import check
from bitorder.check import dataflow
c = collections.Counter()
pt = time.perf_counter
os_ = dataflow._Block.step
def st(self, ins):
    t0 = pt(); r = os_(self, ins); dt = pt() - t0
    c['all'] += dt
    # after the step: are the destination columns uniform per warp by key? per block?
    try:
        dsts = self._shape_of.get(id(ins))
        if dsts:
            d = dsts[0]
            kinds = set()
            for reg in d:
                col = self.cols.get(reg)
                if not col: continue
                def k(v):
                    if v.__class__ is tuple and v and v[0] == 'node': return self.nodes.key_of[v[1]]
                    return repr(v)
                ks = [k(v) for v in col]
                if len(set(ks)) == 1: kinds.add('block')
                elif all(len(set(ks[w:w+32])) == 1 for w in range(0, len(ks), 32)): kinds.add('warp')
                else: kinds.add('varies')
            tag = 'varies' if 'varies' in kinds else 'warp' if 'warp' in kinds else 'block' if kinds else 'none'
            c[tag] += dt; c['n_' + tag] += 1
    except Exception:
        c['err'] += 1
    return r
dataflow._Block.step = st
from sample import class_sample
class_sample(check, int(sys.argv[1]), int(sys.argv[2]))
for k, v in sorted(c.items()): print(k, round(v, 2))
