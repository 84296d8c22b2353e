"""Class the cached PTX of some kernels with one checker, timing each kernel (process_time).
python bench.py SRC_DIR [k1,k2,...] [--profile FILE]: SRC_DIR is the tree's src (bitorder.check imported from there)."""
import sys, os, pickle, time, glob, json
src = sys.argv[1]
sys.path.insert(0, src)
from bitorder import check
names = sys.argv[2].split(",") if len(sys.argv) > 2 and sys.argv[2] else sorted(
    os.path.basename(p)[:-4] for p in glob.glob("/tmp/ckd/ptx/*.pkl"))
prof = sys.argv[sys.argv.index("--profile") + 1] if "--profile" in sys.argv else None
class C:
    def __init__(s, a): s.asm = a
out = {}; T = 0; N = 0
if prof:
    import cProfile; pr = cProfile.Profile(); pr.enable()
for n in names:
    t = 0.0; k = 0
    for j, r in enumerate(pickle.load(open(f"/tmp/ckd/ptx/{n}.pkl", "rb"))):
        if r[4] is None: continue
        c = C(r[4]); t0 = time.process_time()
        s = (check.signature(c), check.level(c))
        t += time.process_time() - t0
        out[f"{n}|{j}|{r[2]}"] = s; k += 1
    T += t; N += k
    print(f"{n:24s} {k:4d} {t:7.2f}s ({k/max(t,1e-9):6.1f}/s)", flush=True)
if prof:
    pr.disable(); pr.dump_stats(prof)
print(f"TOTAL {N} {T:.1f}s ({N/T:.1f}/s)")
if "--dump" in sys.argv:
    json.dump(out, open(sys.argv[sys.argv.index("--dump") + 1], "w"), indent=0, sort_keys=True)
