"""The share of the walk's instruction steps spent in the all-thread float handler (_float_all): both timed with
perf_counter around the calls, over the first 24 configurations of three kernels. python float_share.py (repo root)."""
import sys, pickle, time, importlib, collections
sys.path.insert(0, "src")
from bitorder import check
A = importlib.import_module("bitorder.check.allthreads")
D = importlib.import_module("bitorder.check.dataflow")
S = importlib.import_module("bitorder.check.signature")
acc = collections.Counter()
def wrap(cls, name):
    f = getattr(cls, name)
    def g(self, *a, **k):
        t0 = time.perf_counter()
        try: return f(self, *a, **k)
        finally:
            acc[name] += time.perf_counter() - t0; acc[name + "#n"] += self.n
    setattr(cls, name, g)
wrap(A.AllThreads, "_float_all")
step = D._Block.step
def st(self, ins):
    t0 = time.perf_counter()
    try: return step(self, ins)
    finally: acc["step"] += time.perf_counter() - t0; acc["step#n"] += self.n
D._Block.step = st
class C:
    def __init__(s, asm): s.asm = asm
picks = [("cross_entropy_bwd_c1024_f16", None), ("cross_entropy_bwd_c1024", None), ("col_max_bf16", None)]
t0 = time.process_time()
for name, _ in picks:
    recs = pickle.load(open(f"/tmp/ckd/all/{name}.pkl", "rb"))
    for r in recs[:24]:
        if r[4] is not None: check.signature(C(r[4]))
tot = time.process_time() - t0
print("total", round(tot, 2))
for k in ("step", "_float_all"):
    print(k, round(acc[k], 2), f"{acc[k]/acc[k+'#n']*1e6:.2f} us/thread")
