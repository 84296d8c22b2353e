"""Where a warm walk's time goes, by module (cProfile tottime, summed): each named configuration walked once to warm
make's memo (as a num_warps twin would), then profiled with the answer memos emptied.
    python buckets.py "KERNEL:CONFIG PREFIX" ...   (repository root, stored corpus in /tmp/ckd/all)"""
import sys, pickle, cProfile, pstats, importlib, collections
sys.path.insert(0, "src")
from bitorder import check
S = importlib.import_module("bitorder.check.signature")
class C:
    def __init__(s, a): s.asm = a
picks = [a.split(":", 1) for a in sys.argv[1:]]
pr = cProfile.Profile()
for name, want in picks:
    recs = pickle.load(open(f"/tmp/ckd/all/{name}.pkl", "rb"))
    for r in recs:
        if r[4] is not None and r[2].startswith(want):
            check.signature(C(r[4]))          # warm the node memo (a twin would)
            S._MEMO.clear(); S._BY_TEXT.clear()
            pr.enable(); check.signature(C(r[4])); pr.disable()
            break
st = pstats.Stats(pr).stats
cats = {"keys": ("symbolic.py",), "poly/pred/int": ("poly.py", "predicates.py", "integers.py", "bits.py", "magic.py", "onehot.py", "payloads.py"),
        "memory": ("memory.py",), "allthreads": ("allthreads.py",), "dataflow": ("dataflow.py",), "rules": ("rules.py",), "ptx/parse": ("ptx.py", "canon"), "loops/fold": ("loops.py", "fold.py", "storefold.py", "trips.py", "regions.py")}
tot = collections.Counter(); T = 0
for (f, line, fn), (cc, nc, tt, ct, callers) in st.items():
    T += tt
    cat = next((c for c, pats in cats.items() if any(p in f for p in pats)), "builtins" if f == "~" else "other:" + f.split("/")[-1])
    tot[cat] += tt
for c, v in tot.most_common(): print(f"{c:22s} {v:6.2f}s {v/T*100:5.1f}%")
