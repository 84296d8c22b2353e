"""The family walk's substitution memo at the end of each new canonical text of the stored corpus (walked or
refused), for walk.MAX_MEMO's bound: run with the bound lifted.

    python memo_sizes.py    (reads /tmp/ckd/all; writes memo_sizes.json here: [kernel, index, walked, memo, CPU-s])
"""
import glob
import json
import os
import pickle
import sys
import time
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "src"))
from bitorder.check.families import walk as fw  # noqa: E402
from bitorder.check.signature import _entry, canonicalize, divisible_params
from bitorder.check.symbolic import Unsupported
last = {}
orig = fw._Walk.run
def run(self, body):
    try: return orig(self, body)
    finally: last["memo"] = len(self.memo)
fw._Walk.run = run
fw.MAX_MEMO = 10**12
out = []
for pkl in sorted(glob.glob("/tmp/ckd/all/*.pkl")):
    k = os.path.basename(pkl)[:-4]; seen = set()
    for name, j, cfg, _, asm in pickle.load(open(pkl, "rb")):
        if asm is None: continue
        entry, divisible = _entry(asm["ptx"]), divisible_params(asm)
        key = (canonicalize(entry).signature, divisible)
        if key in seen: continue
        seen.add(key)
        t = time.process_time()
        try:
            st, n = fw.walk(entry, divisible); ok = 1
        except Unsupported: ok = 0
        out.append((k, j, ok, last["memo"], round(time.process_time() - t, 3)))
json.dump(out, open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "memo_sizes.json"), "w"))
ok = sorted((o for o in out if o[2]), key=lambda o: -o[3])
print("walked, largest memos:", ok[:10])
bad = sorted((o for o in out if not o[2]), key=lambda o: -o[3])
print("refused, largest memos:", bad[:10])
