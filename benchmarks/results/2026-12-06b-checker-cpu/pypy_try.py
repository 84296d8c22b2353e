import sys, types, os, pickle, time
src = os.environ.get("SRC", os.path.abspath("src"))
pkg = types.ModuleType('bitorder'); pkg.__path__ = [os.path.join(src, 'bitorder')]
sys.modules['bitorder'] = pkg
from bitorder import check
class C:
    def __init__(s, asm): s.asm = asm
for name in sys.argv[1:]:
    recs = pickle.load(open(f'/tmp/ckd/all/{name}.pkl', 'rb'))
    t = time.process_time(); n = 0; out = {}
    for _, j, cfg, _, asm in recs:
        if asm is None: continue
        c = C(asm)
        out[j] = (check.signature(c), check.level(c)); n += 1
    dt = time.process_time() - t
    print(name, n, round(dt, 2), round(n / dt, 1), 'sig0', out[min(out)][0][:20], flush=True)
