"""Why the family walk refuses each v1/v0 configuration (not a memo hit: over 0.02 CPU-s in 2026-12-07f's paired_new),
with its classing seconds there and the family walk's seconds before it refused.

    python refusal_census.py OUT.json      (the checkout's src, PTX from /tmp/ckd/all)"""
import collections
import gzip
import json
import os
import pickle
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', '..', 'src'))
S = __import__("bitorder.check.signature", fromlist=["_MEMO"])
from bitorder.check.families import walk  # noqa: E402
from bitorder.check import dataflow  # noqa: E402
d = json.load(gzip.open(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '2026-12-07f-checker-cpu', 'paired_new.json.gz')))
want = {k: s for k, s in d['seconds'].items() if d['answers'][k][0][:2] in ('v1', 'v0') and s > 0.02}
by_kernel = collections.defaultdict(dict)
for k, s in want.items():
    kern, idx, cfg = k.split('|', 2)
    by_kernel[kern][int(idx)] = (k, s)
out = {}
t0 = time.process_time()
for kern in sorted(by_kernel):
    rows = pickle.load(open(f'/tmp/ckd/all/{kern}.pkl', 'rb'))
    for r in rows:
        hit = by_kernel[kern].get(r[1])
        if hit is None or r[4] is None:
            continue
        text = r[4]['ptx']
        entry = S._entry(text)
        div = S.divisible_params(r[4])
        t = time.process_time()
        try:
            walk.walk(entry, div)
            why = 'TAKEN?'
        except dataflow.Unsupported as e:
            why = str(e)
        out[hit[0]] = (why, hit[1], time.process_time() - t)
json.dump(out, open(sys.argv[1], 'w'))
print(len(out), time.process_time() - t0)
