"""Where the family walk (check/families/walk.py + names.py) stands on the whole stored corpus: every configuration
walked and named, or refused with its reason; each weighed by its interpolated classing seconds in 2026-12-06c's
paired dumps (the v1 checker's time there). Walk and names only: no roots compared (benchmarks/families_walk.py).

    python survey.py /tmp/ckd/all ../2026-12-06c-checker-cpu/paired_native_half_{a,b}.json.gz > survey.json
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

from bitorder.check.families import names as fn  # noqa: E402
from bitorder.check.families import walk as fw  # noqa: E402
from bitorder.check.signature import _entry, divisible_params  # noqa: E402


def main():
    root, dumps = sys.argv[1], sys.argv[2:]
    secs = {}
    for path in dumps:
        secs.update(json.load(gzip.open(path))["base_seconds"])
    why, why_n = collections.Counter(), collections.Counter()
    total, walked_v1, walked_n, family_s, refused_s = 0.0, 0.0, 0, 0.0, 0.0
    for pkl in sorted(glob.glob(os.path.join(root, "*.pkl"))):
        name = os.path.basename(pkl)[:-4]
        for _, j, cfg, _, asm in pickle.load(open(pkl, "rb")):
            s = secs.get(f"{name}|{j}|{cfg}")
            if asm is None or s is None:
                continue
            total += s
            entry, divisible = _entry(asm["ptx"]), divisible_params(asm)
            t = time.process_time()
            try:
                stores, n = fw.walk(entry, divisible)
                fn.signature(stores, n, divisible)
            except Exception as e:          # (a rule's own error counted by its type, not hidden)
                refused_s += time.process_time() - t
                k = f"{type(e).__name__}: {str(e)[:70]}"
                why[k] += s
                why_n[k] += 1
                continue
            family_s += time.process_time() - t
            walked_v1 += s
            walked_n += 1
    print(json.dumps({
        "configurations": sum(why_n.values()) + walked_n, "v1_seconds": round(total, 1),
        "walked": {"configurations": walked_n, "their_v1_seconds": round(walked_v1, 2),
                   "family_walk_and_names_seconds": round(family_s, 2)},
        "refused": {"configurations": sum(why_n.values()), "seconds_spent_refusing": round(refused_s, 2)},
        "refusals_by_v1_seconds": [{"why": k, "v1_seconds": round(v, 2), "configurations": why_n[k]}
                                   for k, v in why.most_common()]}, indent=1))


if __name__ == "__main__":
    main()
