"""Soundness-direction sweep: an instruction whose result syntactically reaches a store, changed so its value differs,
must change a v1 signature. Classes (MUT's index): 0 add.f32->sub, 1 mul.f32->add, 2 max.f32->min, 3 add.f16/bf16->sub,
4 setp.lt->le, 5 setp gt/ge/eq/ne flipped, 6 an address offset +4, 7 an add.s32/s64 / or.b32 constant +1, 8 fma a,b,c ->
fma c,b,a. Up to 8 live candidates per kernel (seeded), the middle configuration of every kernel classed v1.
    python3 benchmarks/results/2026-12-05e-checker-cpu/mutations.py 0 2 & ... mutations.py 1 2     (the two halves)
mutations.log ran this with class 6's pattern not matching Triton's "[ %rd15 + 0 ]" (0 candidates); the pattern below
is the fixed one, and mutations_address.log is class 6 alone with it (the candidate filter `k == 6` added)."""
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
MUT = [(re.compile(r"^(\s*(?:@%p\d+\s+)?)add(\.r[nzmp])?\.f32(\s)"), lambda m: f"{m.group(1)}sub{m.group(2) or ''}.f32{m.group(3)}"),
       (re.compile(r"^(\s*(?:@%p\d+\s+)?)mul(\.r[nzmp])?\.f32(\s)"), lambda m: f"{m.group(1)}add{m.group(2) or ''}.f32{m.group(3)}"),
       (re.compile(r"^(\s*(?:@%p\d+\s+)?)max\.f32(\s)"), lambda m: f"{m.group(1)}min.f32{m.group(2)}"),
       (re.compile(r"^(\s*(?:@%p\d+\s+)?)add(\.rn)?\.(f16|bf16)(x2)?(\s)"), lambda m: f"{m.group(1)}sub{m.group(2) or ''}.{m.group(3)}{m.group(4) or ''}{m.group(5)}"),
       (re.compile(r"^(\s*(?:@%p\d+\s+)?)setp\.lt\.(s32|u32|s64|u64)(\s)"), lambda m: f"{m.group(1)}setp.le.{m.group(2)}{m.group(3)}"),
       (re.compile(r"^(\s*(?:@%p\d+\s+)?)setp\.(gt|ge|eq|ne)\.(s32|u32|s64|u64)(\s)"), lambda m: f"{m.group(1)}setp.{ {'gt':'ge','ge':'gt','eq':'ne','ne':'eq'}[m.group(2)] }.{m.group(3)}{m.group(4)}"),
       (re.compile(r"(\[\s*%rd\d+\s*\+\s*)(\d+)(\s*\])"), lambda m: f"{m.group(1)}{int(m.group(2)) + 4}{m.group(3)}"),
       (re.compile(r"^(\s*(?:@%p\d+\s+)?)(add\.s32|add\.s64|or\.b32)(\s+%\w+,\s*%\w+,\s*)(\d+);"), lambda m: f"{m.group(1)}{m.group(2)}{m.group(3)}{int(m.group(4)) + 1};"),
       (re.compile(r"^(\s*(?:@%p\d+\s+)?)fma\.rn\.f32(\s+)(%\w+),\s*(%\w+),\s*(%\w+),\s*(%\w+);"), lambda m: f"{m.group(1)}fma.rn.f32{m.group(2)}{m.group(3)}, {m.group(6)}, {m.group(5)}, {m.group(4)};")]
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
