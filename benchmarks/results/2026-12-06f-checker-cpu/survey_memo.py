"""The family walk on the whole stored corpus as check.signature would run it: each configuration parsed and its
program text canonicalised (signature.canonicalize), walked and named only where that text (and divisibility) is
new, as v1's _MEMO does; weighed against v1's seconds in 2026-12-06c's paired dumps, which paid the same parse,
canonicalisation and memo. 2026-12-06e's survey.py walked every configuration, memo hits too, so its x1.37 was
v2's cost without the memo against v1's with it.

    python survey_memo.py /tmp/ckd/all ../2026-12-06c-checker-cpu/paired_native_half_{a,b}.json.gz > survey_memo.json
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
from bitorder.check.signature import _entry, canonicalize, divisible_params  # noqa: E402


def main():
    root, dumps = sys.argv[1], sys.argv[2:]
    secs = {}
    for path in dumps:
        secs.update(json.load(gzip.open(path))["base_seconds"])
    memo: dict = {}
    per = collections.defaultdict(lambda: collections.Counter())
    why = collections.Counter()
    for pkl in sorted(glob.glob(os.path.join(root, "*.pkl"))):
        name = os.path.basename(pkl)[:-4]
        for _, j, cfg, _, asm in pickle.load(open(pkl, "rb")):
            s = secs.get(f"{name}|{j}|{cfg}")
            if asm is None or s is None:
                continue
            k = per[name]
            k["configurations"] += 1
            k["v1_seconds"] += s
            t = time.process_time()
            entry, divisible = _entry(asm["ptx"]), divisible_params(asm)
            key = (canonicalize(entry).signature, divisible)
            k["parse_and_canonicalise_seconds"] += time.process_time() - t
            hit = memo.get(key)
            if hit is None:
                t = time.process_time()
                try:
                    stores, n = fw.walk(entry, divisible)
                    hit = fn.signature(stores, n, divisible)
                except Exception as e:      # (a rule's own error counted by its type, not hidden)
                    hit = f"refused: {type(e).__name__}: {str(e)[:70]}"
                k["walk_and_names_seconds" if not hit.startswith("refused") else "refusing_seconds"] += \
                    time.process_time() - t
                memo[key] = hit
            else:
                k["memo_hits"] += 1
            if hit.startswith("refused"):
                k["refused"] += 1
                k["refused_v1_seconds"] += s
                why[hit[len("refused: "):]] += s
            else:
                k["walked"] += 1
                k["walked_v1_seconds"] += s
    walked = {n: k for n, k in per.items() if k["walked"] == k["configurations"]}
    tot = collections.Counter()
    for k in per.values():
        tot.update(k)
    allw = collections.Counter()
    for k in walked.values():
        allw.update(k)
    r = lambda c: {a: round(b, 3) if isinstance(b, float) else b for a, b in sorted(c.items())}  # noqa: E731
    print(json.dumps({
        "total": r(tot),
        "kernels_walked_whole": {"kernels": len(walked), **r(allw),
                                 "speedup": round(allw["v1_seconds"] / max(1e-9, allw["parse_and_canonicalise_seconds"]
                                                                          + allw["walk_and_names_seconds"]), 2)},
        "per_kernel": {n: r(k) for n, k in sorted(per.items())},
        "refusals_by_v1_seconds": [{"why": a, "v1_seconds": round(b, 2)} for a, b in why.most_common(40)]},
        indent=1))


if __name__ == "__main__":
    main()
