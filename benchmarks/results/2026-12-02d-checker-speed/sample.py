"""python sample.py KERNELS: run checker_speed's loop under a sampling profiler (own line + function)."""
import sys, threading, time, collections, pickle, os
sys.path.insert(0, "/work/main/src")
from bitorder import check
sys.setswitchinterval(0.0005)
names = sys.argv[1].split(",")
main = threading.main_thread().ident
self_c, incl_c, line_c = collections.Counter(), collections.Counter(), collections.Counter()
stop = False
def sampler():
    while not stop:
        time.sleep(0.001)
        f = sys._current_frames().get(main)
        if f is None: continue
        top = f
        self_c[(top.f_code.co_name, top.f_code.co_filename.split('/')[-1])] += 1
        line_c[(top.f_code.co_filename.split('/')[-1], top.f_lineno, top.f_code.co_name)] += 1
        seen = set()
        while f is not None:
            k = (f.f_code.co_name, f.f_code.co_filename.split('/')[-1])
            if k not in seen:
                incl_c[k] += 1; seen.add(k)
            f = f.f_back
th = threading.Thread(target=sampler, daemon=True); th.start()
class C:
    def __init__(s, a): s.asm = a
t0 = time.process_time()
for n in names:
    for r in pickle.load(open(f"/tmp/ckd/ptx/{n}.pkl", "rb")):
        if r[4] is None: continue
        c = C(r[4]); check.signature(c); check.level(c)
stop = True
tot = sum(self_c.values())
print("cpu", time.process_time() - t0, "samples", tot)
print("== self"); [print(f"{100*v/tot:5.1f}% {k}") for k, v in self_c.most_common(30)]
print("== inclusive"); [print(f"{100*v/tot:5.1f}% {k}") for k, v in incl_c.most_common(40)]
print("== lines"); [print(f"{100*v/tot:5.1f}% {k}") for k, v in line_c.most_common(50)]
