"""Second sweep, mutations of attributes and data movement (MUT's index): 0 an explicit .rn made .rz (add, sub, mul,
fma), 1 .ftz added to an f32 add/sub/mul/fma/max/min, 2 a guard negated (@%p -> @!%p), 3 the first two destinations
of a vector global load swapped, 4 a butterfly shuffle's offset halved (1 -> 2), 5 cvt.rn.f16/bf16.f32 made .rz (no
candidate matched), 6 .ftz added to ex2/lg2.approx, 7 a float constant's last bit flipped. Up to 8 live candidates
per kernel (seeded), the middle configuration of every kernel classed v1; a mutant keeping its signature is printed
SAME. python3 benchmarks/results/2026-12-05e-checker-cpu/mutations_attributes.py 0 2 & ... 1 2    (the two halves)"""
import sys, re, random, pickle, glob, os, time
sys.path.insert(0, 'src')
from bitorder import check
from bitorder.check import parse
class C:
    def __init__(s, a): s.asm = a
REGS = re.compile(r"%[a-z]+\d+")
def live_lines(lines):
    # backward def-use from global stores, ignoring predication and order (over-approximate liveness)
    defs = {}
    uses_of_line = {}
    stores = []
    for i, l in enumerate(lines):
        s = l.strip()
        if not s or s.startswith(('.', '//', '$', '{', '}')): continue
        body = s.split(';')[0]
        if body.startswith('@'): body = body.split(None, 1)[1] if ' ' in body else body
        parts = body.split(None, 1)
        if len(parts) < 2: continue
        op, rest = parts
        regs = REGS.findall(rest)
        if op.startswith(('st.global', 'st.shared', 'red.', 'atom.', 'stmatrix', 'shfl', 'wgmma', 'mma', 'cp.')) or op.startswith('st.'):
            stores.append(i); uses_of_line[i] = regs; continue
        if rest.lstrip().startswith('{'):
            inner = rest[rest.index('{') + 1:rest.index('}')]
            d = REGS.findall(inner); u = REGS.findall(rest[rest.index('}') + 1:])
        else:
            d = regs[:1]; u = regs[1:]
        for r in d: defs.setdefault(r, []).append(i)
        uses_of_line[i] = u
    live = set(); work = list(stores)
    while work:
        i = work.pop()
        if i in live: continue
        live.add(i)
        for r in uses_of_line.get(i, []):
            work.extend(defs.get(r, []))
    return live
G = r"^(\s*(?:@!?%p\d+\s+)?)"
MUT = [(re.compile(G + r"(add|sub|mul|fma)\.rn(\.f32|\.f16|\.bf16)"), lambda m: f"{m.group(1)}{m.group(2)}.rz{m.group(3)}"),
       (re.compile(G + r"(add|sub|mul|fma\.rn|fma\.rz|fma\.rm|max|min)\.f32(\s)"), lambda m: f"{m.group(1)}{m.group(2)}.ftz.f32{m.group(3)}"),
       (re.compile(r"^(\s*)@%p(\d+)(\s)"), lambda m: f"{m.group(1)}@!%p{m.group(2)}{m.group(3)}"),
       (re.compile(r"(ld\.global[\w.]*\s*\{\s*)(%\w+)(\s*,\s*)(%\w+)"), lambda m: f"{m.group(1)}{m.group(4)}{m.group(3)}{m.group(2)}"),
       (re.compile(r"(shfl\.sync\.bfly\.b32\s+%\w+,\s*%\w+,\s*)(\d+)(,)"), lambda m: f"{m.group(1)}{int(m.group(2)) // 2 if int(m.group(2)) > 1 else 2}{m.group(3)}"),
       (re.compile(r"cvt\.rn\.(f16|bf16)\.f32"), lambda m: f"cvt.rz.{m.group(1)}.f32"),
       (re.compile(r"(ex2|lg2)\.approx\.f32"), lambda m: f"{m.group(1)}.approx.ftz.f32"),
       (re.compile(r"(0f)([0-9A-F]{8})"), lambda m: f"{m.group(1)}{(int(m.group(2), 16) ^ 1):08X}")]
files = sorted(glob.glob('/tmp/ckd/all/*.pkl'))[int(sys.argv[1])::int(sys.argv[2])]
rng = random.Random(0)
tot = same = 0; kept = {}; byk = {}; t0 = time.time()
for p in files:
    recs = [x for x in pickle.load(open(p, 'rb')) if x[4] is not None]
    asm = recs[len(recs) // 2][4]
    if not check.level(C(asm)).startswith('v1'): continue
    base = check.signature(C(asm))
    lines = asm['ptx'].split('\n')
    live = live_lines(lines)
    cands = [(i, k) for i in sorted(live) for k, (rx, _) in enumerate(MUT) if rx.search(lines[i])]
    # fma swap is a no-op when operands 1 and 3 are the same register
    rng.shuffle(cands)
    for i, k in cands[:8]:
        rx, fn = MUT[k]
        new = rx.sub(fn, lines[i], count=1)
        if new == lines[i]: continue
        m = lines[:i] + [new] + lines[i + 1:]
        a2 = dict(asm, ptx='\n'.join(m))
        try:
            s2 = check.signature(C(a2)); l2 = check.level(C(a2))
        except Exception as e:
            print('ERR', os.path.basename(p), e); continue
        tot += 1; stay = l2.startswith('v1'); kept[k] = kept.get(k, 0) + stay; byk[k] = byk.get(k, 0) + 1
        if s2 == base:
            same += 1
            print('SAME', os.path.basename(p), i, lines[i].strip(), '->', new.strip(), '|', l2[:60], flush=True)
print('done mutants', tot, 'same signature', same, 'by class (mutants, still v1)', {k: (byk[k], kept.get(k, 0)) for k in sorted(byk)}, round(time.time() - t0))
