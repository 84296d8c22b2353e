"""Paired A/B: per config, base (package bck, a copy of the starting commit 383cb35 src/bitorder/check) then new
(bitorder.check of $NEW_SRC, default /work/main/src), alternating which goes first; compares the signature and the level
text of each configuration and times each side with process_time. python ab_paired.py k1,k2 (all kernels if empty)."""
import sys, os, pickle, time, glob, json
sys.path.insert(0, os.environ.get("NEW_SRC", "/work/main/src")); sys.path.insert(0, "/tmp/ck3/pkgs")
import bck
from bitorder import check as new
names = sys.argv[1].split(",") if len(sys.argv) > 1 and sys.argv[1] else sorted(os.path.basename(p)[:-4] for p in glob.glob("/tmp/ckd/ptx/*.pkl"))
class C:
    def __init__(s, a): s.asm = a
TA = TB = 0; diffs = 0; N = 0
for n in names:
    ta = tb = 0.0; k = 0
    for j, r in enumerate(pickle.load(open(f"/tmp/ckd/ptx/{n}.pkl", "rb"))):
        if r[4] is None: continue
        order = (bck, new) if j % 2 == 0 else (new, bck)
        out = {}
        for m in order:
            c = C(r[4]); t0 = time.process_time()
            s = (m.signature(c), m.level(c))
            dt = time.process_time() - t0
            out[m] = s
            if m is bck: ta += dt
            else: tb += dt
        if out[bck] != out[new]:
            diffs += 1; print("DIFF", n, r[2], out[bck][0], out[new][0])
        k += 1
    TA += ta; TB += tb; N += k
    print(f"{n:24s} {k:4d} base {ta:7.2f}s ({k/ta:6.1f}/s) new {tb:7.2f}s ({k/tb:6.1f}/s) x{ta/tb:.2f}", flush=True)
print(f"TOTAL {N} base {TA:.1f}s ({N/TA:.1f}/s) new {TB:.1f}s ({N/TB:.1f}/s) x{TA/TB:.2f} diffs {diffs}")
