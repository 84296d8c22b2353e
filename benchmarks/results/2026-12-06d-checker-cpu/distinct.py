import sys, pickle, collections, time
sys.path.insert(0, "src")
from bitorder import check
from bitorder.check import dataflow
stats = []
orig = dataflow.walk
def walk(*a, **k):
    r = orig(*a, **k)
    ko = r[1].key_of
    stats.append((len(ko), len(set(ko))))
    return r
dataflow.walk = walk
class C:
    def __init__(s, asm): s.asm = asm
for name in sys.argv[1:]:
    recs = pickle.load(open(f"/tmp/ckd/all/{name}.pkl", "rb"))
    stats.clear(); t0 = time.process_time()
    for _, j, cfg, _, asm in recs[:40]:
        if asm is None: continue
        check.signature(C(asm))
    made = sum(a for a, b in stats); dis = sum(b for a, b in stats)
    print(name, len(stats), "walks", made, "made", dis, "distinct-in-walk", f"{dis/made:.2f}", f"{time.process_time()-t0:.1f}s")
