# One configuration (the middle one) of every stored kernel, classed as compiled and renamed: registers permuted
# within their class, the entry and its parameters renamed, every $L__ label renamed. Run from the repository root:
#   python3 benchmarks/results/2026-12-05e-checker-cpu/rename.py 0 2 & python3 ... rename.py 1 2   (the two halves)
# Stored PTX: /tmp/ckd/all (benchmarks/results/2026-12-04e-checker-speed-cpu/dump_all.py).
import sys, re, random, pickle, glob, os, time
sys.path.insert(0, 'src')
from bitorder import check
REG = re.compile(r"%(rd|rs|r|fd|f|p|hh|h|b)(\d+)\b")
def renamed(ptx, seed):
    rng = random.Random(seed)
    used = {}
    for cls, n in REG.findall(ptx):
        used.setdefault(cls, set()).add(int(n))
    perm = {}
    for cls, ns in used.items():
        a = sorted(ns); b = a[:]; rng.shuffle(b)
        perm.update({(cls, x): y for x, y in zip(a, b)})
    out = REG.sub(lambda m: f"%{m.group(1)}{perm[(m.group(1), int(m.group(2)))]}", ptx)
    name = re.search(r"\.entry\s+(\w+)", out).group(1)
    out = re.sub(r"\b%s\b" % re.escape(name), "renamed_kernel", out)
    out = re.sub(r"\b%s_param_" % re.escape(name), "renamed_kernel_param_", out)
    labels = sorted(set(re.findall(r"\$L__\w+", out)), key=len, reverse=True)
    for i, l in enumerate(labels):
        out = re.sub(re.escape(l) + r"\b", f"$L__Z{i}", out)
    return out
class C:
    def __init__(s, a): s.asm = a
files = sorted(glob.glob('/tmp/ckd/all/*.pkl'))[int(sys.argv[1])::int(sys.argv[2])]
bad = 0; n = 0; t0 = time.time()
for p in files:
    recs = [x for x in pickle.load(open(p, 'rb')) if x[4] is not None]
    x = recs[len(recs) // 2]
    asm = x[4]
    a = (check.signature(C(asm)), check.level(C(asm)))
    r = dict(asm, ptx=renamed(asm['ptx'], 1))
    b = (check.signature(C(r)), check.level(C(r)))
    n += 1
    if a != b:
        bad += 1; print('DIFF', os.path.basename(p), x[2], a[1][:80], '|', b[1][:80], flush=True)
print('done', n, 'differ', bad, time.time() - t0)
