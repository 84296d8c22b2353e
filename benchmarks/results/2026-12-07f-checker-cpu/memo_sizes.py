"""The family walk's substitution memo at the end of each new canonical text of the stored corpus (walked and named, or
refused), with walk.MAX_MEMO's bound lifted: the bound's evidence (2026-12-07b's memo_sizes.py, run on today's tree).

    python memo_sizes.py PART NPARTS     (reads /tmp/ckd/all; writes /tmp/memo_now_PART.json:
                                          [kernel, index, walked and named, memo entries, CPU-s])

memo_sizes.json here is both parts of the run, made before `last` was reset per text: a text refused before its walk
began (CPU-s 0.0) carries the previous text's memo size there.
"""
import glob, json, os, pickle, sys, time
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "src"))
from bitorder.check.families import walk as fw, names as fn  # noqa: E402
from bitorder.check.signature import _entry, canonicalize, divisible_params  # noqa: E402
from bitorder.check.symbolic import Unsupported  # noqa: E402
last = {}
orig = fw._Walk.run
def run(self, body):
    try: return orig(self, body)
    finally: last["memo"] = len(self.memo)
fw._Walk.run = run
fw.MAX_MEMO = 10**12
out = []
files = sorted(glob.glob("/tmp/ckd/all/*.pkl"))
part, nparts = int(sys.argv[1]), int(sys.argv[2])
for pkl in files[part::nparts]:
    k = os.path.basename(pkl)[:-4]; seen = set()
    for name, j, cfg, _, asm in pickle.load(open(pkl, "rb")):
        if asm is None: continue
        entry, divisible = _entry(asm["ptx"]), divisible_params(asm)
        key = (canonicalize(entry).signature, divisible)
        if key in seen: continue
        seen.add(key)
        t = time.process_time()
        last["memo"] = 0
        try:
            st, n = fw.walk(entry, divisible); fn.signature(st, n, divisible); ok = 1
        except Unsupported: ok = 0
        out.append((k, j, ok, last.get("memo", 0), round(time.process_time() - t, 3)))
json.dump(out, open(f"/tmp/memo_now_{part}.json", "w"))
ok = sorted((o for o in out if o[2]), key=lambda o: -o[3])
print("walked, largest memos:", ok[:6])
