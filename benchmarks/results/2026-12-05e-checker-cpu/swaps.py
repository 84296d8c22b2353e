"""Adjacent independent instructions swapped (no register one writes is read or written by the other, neither a
branch, barrier, label or shuffle): the checker should mostly merge them; where both touch memory they may alias."""
import sys, re, random, pickle, glob, os, time, json
sys.path.insert(0, 'src')
from bitorder import check
class C:
    def __init__(s, a): s.asm = a
REGS = re.compile(r"%[a-z]+\d+")
def parse_line(l):
    s = l.strip()
    if not s or s.startswith(('.', '//', '$', '{', '}')) or s.endswith(':'): return None
    s = s.split(';')[0]
    guard = []
    if s.startswith('@'):
        g, s = s.split(None, 1); guard = REGS.findall(g)
    parts = s.split(None, 1)
    if len(parts) < 2: return None
    op, rest = parts
    if rest.lstrip().startswith('{'):
        d = REGS.findall(rest[:rest.index('}')]); u = REGS.findall(rest[rest.index('}'):])
    elif op.startswith(('st.', 'red.', 'atom.')):
        d = []; u = REGS.findall(rest)
    else:
        r = REGS.findall(rest); d, u = r[:1], r[1:]
    return op, set(d), set(u) | set(guard)
files = sorted(glob.glob('/tmp/ckd/all/*.pkl'))[int(sys.argv[1])::int(sys.argv[2])]
rng = random.Random(1)
tot = same = 0; cases = []
for p in files:
    recs = [x for x in pickle.load(open(p, 'rb')) if x[4] is not None]
    x = recs[len(recs) // 2]; asm = x[4]
    if not check.level(C(asm)).startswith('v1'): continue
    base = check.signature(C(asm))
    lines = asm['ptx'].split('\n')
    idx = [i for i, l in enumerate(lines) if parse_line(l)]
    pairs = []
    for a, b in zip(idx, idx[1:]):
        if any(not lines[k].strip() or lines[k].strip().startswith(('$',)) or lines[k].strip().endswith(':') for k in range(a + 1, b)): continue
        pa, pb = parse_line(lines[a]), parse_line(lines[b])
        bad = ('bra', 'bar', 'shfl', 'ret', 'mbarrier', 'fence', 'wgmma', 'cp.', 'ldmatrix', 'stmatrix', 'membar')
        if pa[0].startswith(bad) or pb[0].startswith(bad): continue
        if pa[1] & (pb[1] | pb[2]) or pb[1] & pa[2]: continue
        pairs.append((a, b, pa[0], pb[0]))
    mem = [q for q in pairs if q[2].startswith(('ld.', 'st.')) and q[3].startswith(('ld.', 'st.'))]
    rng.shuffle(pairs)
    pick = mem[:6] + pairs[:6]
    for a, b, oa, ob in pick:
        m = list(lines); m[a], m[b] = lines[b], lines[a]
        a2 = dict(asm, ptx='\n'.join(m))
        try:
            s2 = check.signature(C(a2)); l2 = check.level(C(a2))
        except Exception as e:
            print('ERR', e); continue
        tot += 1
        if s2 == base:
            same += 1
            cases.append({"kernel": os.path.basename(p)[:-4], "index": x[1], "edits": [[a, lines[b]], [b, lines[a]]], "ops": [oa, ob]})
        else:
            print('SPLIT', os.path.basename(p), oa, ob, l2[:70], flush=True)
print('done', tot, 'merged', same)
json.dump(cases, open(f'/tmp/w/swap_{sys.argv[1]}.json', 'w'))
