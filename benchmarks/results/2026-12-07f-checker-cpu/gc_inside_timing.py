import gc, time, sys, pickle, os
sys.path.insert(0, sys.argv[1])
import bitorder.check as check
inside = [False]; acc = {True: 0.0, False: 0.0}; st = {}
def cb(phase, info):
    if phase == "start": st["t"] = time.process_time()
    else: acc[inside[0]] += time.process_time() - st["t"]
gc.callbacks.append(cb)
class C:
    def __init__(s, a): s.asm = a
tot = 0.0
for name in sys.argv[2].split(","):
    recs = pickle.load(open(f"/tmp/ckd/all/{name}.pkl", "rb"))
    for r in recs:
        if r[4] is None: continue
        c = C(r[4])
        inside[0] = True
        t0 = time.process_time(); ans = (check.signature(c), check.level(c)); tot += time.process_time() - t0
        inside[0] = False
print(sys.argv[1], "classing", round(tot, 1), "gc inside", round(acc[True], 2), "gc outside", round(acc[False], 2))
