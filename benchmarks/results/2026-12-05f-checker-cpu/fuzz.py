import pickle, random, sys, collections, traceback, glob, os
sys.path.insert(0, 'src')
from bitorder import check
from bitorder.check import PTXError
rng = random.Random(int(sys.argv[1]))
files = sorted(glob.glob('/tmp/ckd/all/*.pkl'))
errs = collections.Counter(); ex = {}
n = 0
import signal
for f in rng.sample(files, int(sys.argv[2])):
    rows = [r for r in pickle.load(open(f, 'rb')) if r[4]]
    r = rng.choice(rows); text = r[4]['ptx']
    lines = text.split('\n')
    for trial in range(int(sys.argv[3])):
        L = list(lines); kind = rng.choice(['del', 'dup', 'trunc', 'tok', 'char', 'swapline'])
        i = rng.randrange(len(L))
        if kind == 'del': del L[i]
        elif kind == 'dup': L.insert(i, L[i])
        elif kind == 'trunc': L = L[:i] + [L[i][:rng.randrange(len(L[i]) + 1)]]
        elif kind == 'tok':
            toks = L[i].split()
            if len(toks) > 1:
                j = rng.randrange(len(toks)); toks[j] = rng.choice(['%r1', '%rd1', '%p1', '0', '-1', '0f3F800000', 'foo', '[%rd1]', '{%r1, %r2}', ';', ','])
                L[i] = ' '.join(toks)
        elif kind == 'char':
            s = L[i]
            if s:
                j = rng.randrange(len(s)); L[i] = s[:j] + rng.choice('{}[]();,.%$ 0x') + s[j + 1:]
        else:
            j = rng.randrange(len(L)); L[i], L[j] = L[j], L[i]
        t = '\n'.join(L); n += 1
        try:
            check.signature(t)
        except PTXError as e:
            errs['PTXError'] += 1
        except Exception as e:
            k = (kind, type(e).__name__, traceback.extract_tb(e.__traceback__)[-1].name)
            errs[k] += 1; ex.setdefault(k, (os.path.basename(f), i, L[i] if i < len(L) else '', str(e)[:200]))
print(n, errs.most_common())
for k, v in ex.items(): print(k, v)
