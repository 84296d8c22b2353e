"""How many nodes _make_column makes whose key another thread made in the same instruction, and where those threads
are (one warp; other warps, other lanes; the same lane of other warps): every Ath kernel, every Bth configuration:
    python3 dupkeys.py A B     (from the repository root; stored PTX in /tmp/ckd/all)"""
import sys, collections
sys.path.insert(0, 'src')
from bitorder import check
from bitorder.check import allthreads
c = collections.Counter()
orig = allthreads._make_column
def mc(nodes, op, argss, kind):
    start = len(nodes.key_of)
    out = orig(nodes, op, argss, kind)
    keys = nodes.key_of[start:]
    c['nodes'] += len(keys); c['distinct'] += len(set(keys))
    g = collections.defaultdict(list)
    for t, k in enumerate(keys): g[k].append(t)
    for ts in g.values():
        if len(ts) > 1:
            ws = {t // 32 for t in ts}
            c['dup_intra_warp' if len(ws) == 1 else ('dup_inter_same_lane' if len({t % 32 for t in ts}) == 1 else 'dup_mixed')] += len(ts) - 1
    return out
allthreads._make_column = mc
from sample import class_sample
class_sample(check, int(sys.argv[1]), int(sys.argv[2]))
print(c, 1 - c['distinct'] / c['nodes'])
