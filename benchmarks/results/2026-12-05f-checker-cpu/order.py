"""Classing order must not change an answer: a sample of stored configurations classed in a shuffled order in one
process, against checker_speed's recorded answers (2026-12-05b head dumps, folds on = today's defaults)."""
import gzip, json, pickle, random, sys, time
sys.path.insert(0, 'src')
from bitorder import check
class C:
    def __init__(s, a): s.asm = a
seed, every = int(sys.argv[1]), int(sys.argv[2])
ref = {}
for h in 'ab':
    ref.update(json.load(gzip.open(f'benchmarks/results/2026-12-05b-checker-cpu/head_half_{h}.json.gz'))['answers'])
import glob, os
items = []
for f in sorted(glob.glob('/tmp/ckd/all/*.pkl')):
    for r in pickle.load(open(f, 'rb')):
        if r[4] is not None:
            items.append(r)
rng = random.Random(seed)
items = [x for x in items if rng.randrange(every) == 0]
rng.shuffle(items)
diff = n = 0; t = time.process_time()
for kernel, index, cfg, grid, asm in items:
    k = f"{kernel}|{index}|{cfg}"
    if k not in ref:
        continue
    got = [check.signature(C(asm)), check.level(C(asm))]
    n += 1
    if got != ref[k]:
        diff += 1
        print("DIFF", k, got, ref[k], flush=True)
print(json.dumps({"seed": seed, "every": every, "compared": n, "differ": diff, "cpu_s": round(time.process_time() - t, 1)}))
