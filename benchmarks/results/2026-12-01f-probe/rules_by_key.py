"""Per (option, dtype, split, batched, bias) key, the gemv orders every record of the key leaves (probe_gemv.json.gz,
the 2026-12-01f probe): python benchmarks/results/2026-12-01f-probe/rules_by_key.py (about 2 min, CPU)."""
import gzip, os, sys, json, collections, itertools
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', '..'))
import numpy as np
import probe_gemv as P
from bitorder.cublas import gemv_design as G
from bitorder.emulate.simt import GemvOrder
recs = json.load(gzip.open(os.path.join(HERE, 'probe_gemv.json.gz'), 'rt'))['records']
groups = collections.defaultdict(list)
for i, r in enumerate(recs):
    if 'error' in r: continue
    a = r['answer']; c = r['case']
    split = int(a.get('split_k') or 1)
    key = (int(a['custom_option']), c['dtype'], split > 1, c['batch'] > 1, c['op'] == 'linear_bias')
    groups[key].append((i, r))
def cands(k, split):
    span = -(-k // split) if split > 1 else None
    for lanes in (1, 2, 4, 8, 16, 32, 64):
        for chunk in (None, 1, 2, 4, 8, 16, 32, 64):
            for cap in ((None, 64) if chunk is None else (None,)):
                for fold in ('down', 'seq'):
                    for bias in ('acc', 'out'):
                        yield GemvOrder(lanes=lanes, chunk=chunk, cap=cap, span=span, fold=fold, bias=bias)
def fits(r, o):
    c = r['case']
    pairs, tracers = P.design_for(c['k'], c['dtype'])
    obs = G.decode(r['bits'], c['dtype'])
    if (obs < 0).any(): return False
    if not np.array_equal(G.predict(o, c['k'], pairs, tracers), obs): return False
    return bool(P.confirm(r, [o], pairs, tracers))
out = {}
for key, rs in sorted(groups.items()):
    common = None
    per = []
    for i, r in rs:
        split = int(r['answer'].get('split_k') or 1)
        ok = set()
        for o in cands(r['case']['k'], split):
            if fits(r, o):
                ok.add((o.lanes, o.chunk, o.cap, o.fold, o.bias))
        per.append((i, r['case']['m'], r['case']['n'], r['case']['k'], split, len(ok)))
        common = ok if common is None else common & ok
    print(key, 'records', [(p[0], f"{p[1]}x{p[2]}x{p[3]}/s{p[4]}", p[5]) for p in per])
    print('   common', sorted(common, key=str)[:12], len(common))
    out[str(key)] = {'records': per, 'common': sorted(map(str, common))}
json.dump(out, open(os.path.join(HERE, 'rules.json'), 'w'), indent=1)
