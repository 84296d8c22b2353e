"""Where check/ahead.py's read-ahead fires over the stored corpus, against a dump of the checker without it: every
configuration it refuses must have ended v0 there (a refusal read ahead is one the walk makes), and the time those
configurations took there is what the read-ahead can save.

    python ahead_corpus.py BEFORE.json[.gz] [PTX_DIR]      (PTX_DIR: /tmp/ckd/all, 2026-12-04e's dump_all.py)
"""
import collections
import glob
import gzip
import json
import os
import pickle
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "src"))
from bitorder.check import ahead                      # noqa: E402
from bitorder.check.signature import _entry           # noqa: E402

before_path = sys.argv[1]
ptx = sys.argv[2] if len(sys.argv) > 2 else "/tmp/ckd/all"
before = json.load(gzip.open(before_path) if before_path.endswith(".gz") else open(before_path))
answers, seconds = before["answers"], before["seconds"]
rules = {"payload_stored": (ahead.payload_stored, "reaches an output"), "mul_added": (ahead.mul_added, "may contract")}
for name, (rule, why) in rules.items():
    fired, wrong, missed, saved, spent, n = collections.Counter(), [], collections.Counter(), 0.0, 0.0, 0
    for path in sorted(glob.glob(os.path.join(ptx, "*.pkl"))):
        for kernel, index, cfg, _, asm in pickle.load(open(path, "rb")):
            key = f"{kernel}|{index}|{cfg}"
            entry = _entry(asm["ptx"])      # (parsed outside the rule's time: the checker parses once for all levels)
            t0 = time.process_time()
            hit = rule(entry)
            spent += time.process_time() - t0
            n += 1
            if hit:
                fired[kernel] += 1
                saved += seconds[key]
                if not answers[key][0].startswith("v0"):
                    wrong.append(key)
            elif why in answers[key][1]:
                missed[kernel] += 1
    print(f"{name}: fires on {sum(fired.values())} of {n} configurations ({len(fired)} kernels), {len(wrong)} of them "
          f"not v0 before; the walk's own refusal missed on {sum(missed.values())}; their time before {saved:.1f} "
          f"CPU-s; the rule's own time {spent:.1f} CPU-s over all {n}")
    for k, c in sorted(fired.items()):
        print(f"    {k}: {c}")
    for k in wrong[:20]:
        print("    NOT v0 BEFORE:", k)
