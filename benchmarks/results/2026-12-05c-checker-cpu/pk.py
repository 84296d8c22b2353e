"""pkey calls by memo hit or miss and by whether the polynomial is one atom with coefficient 1:
    python3 pk.py k1,k2,...    (every 8th configuration; from the repository root)"""
import sys, pickle, collections
sys.path.insert(0, 'src')
from bitorder import check
from bitorder.check import poly
c = collections.Counter()
orig = poly.pkey
def pk(p):
    if isinstance(p, int): c['int'] += 1
    else:
        items = tuple(p.items())
        hit = items in poly._PKEY
        single = len(items) == 1 and items[0][1] == 1 and len(items[0][0]) == 1
        c[('hit' if hit else 'miss', single)] += 1
    return orig(p)
for m in list(sys.modules):
    mod = sys.modules[m]
    if m.startswith('bitorder.check') and getattr(mod, 'pkey', None) is orig:
        mod.pkey = pk
class C:
    def __init__(s, a): s.asm = a
for k in sys.argv[1].split(','):
    for r in pickle.load(open(f'/tmp/ckd/all/{k}.pkl', 'rb'))[::8]:
        if r[4] is not None: check.signature(C(r[4]))
print(c.most_common())
