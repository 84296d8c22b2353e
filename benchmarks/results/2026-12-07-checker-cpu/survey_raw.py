"""The family walk over the whole stored corpus as check.signature would run it, counting what it would pay: a PTX
text seen before (the raw text: signature._BY_TEXT) costs nothing; a new text is parsed and canonicalised, and
walked and named only where its canonical text is new (signature._MEMO). 2026-12-06f's survey_memo.py parsed every
configuration, though v1's seconds it compares with skip the parse of a raw text seen before (72% of the corpus is
num_stages twins), so it overstated the floor. Per kernel: v1 seconds, what the walk costs, and why it refuses.

    python survey_raw.py /tmp/ckd/all > survey_raw.json
"""
import collections
import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "src"))
sys.path.insert(0, os.path.join(HERE, "..", ".."))

from stored_corpus import configurations  # noqa: E402
from bitorder.check.families import names as fn  # noqa: E402
from bitorder.check.families import walk as fw  # noqa: E402
from bitorder.check.signature import _entry, canonicalize, divisible_params  # noqa: E402


def main():
    raw: dict = {}
    canon: dict = {}
    per = collections.defaultdict(collections.Counter)
    why = collections.Counter()
    whys = collections.defaultdict(collections.Counter)
    for name, _, _, asm, s in configurations(sys.argv[1]):
        k = per[name]
        k["configurations"] += 1
        k["v1_seconds"] += s
        divisible = divisible_params(asm)
        rkey = (asm["ptx"], divisible)
        hit = raw.get(rkey)
        if hit is None:
            t = time.process_time()
            entry = _entry(asm["ptx"])
            key = (canonicalize(entry).signature, divisible)
            k["parse_and_canonicalise_seconds"] += time.process_time() - t
            hit = canon.get(key)
            if hit is None:
                t = time.process_time()
                try:
                    stores, n = fw.walk(entry, divisible)
                    hit = fn.signature(stores, n, divisible)
                except Exception as e:      # (a rule's own error counted by its type, not hidden)
                    hit = f"refused: {type(e).__name__}: {str(e)[:80]}"
                k["walk_and_names_seconds" if not hit.startswith("refused") else "refusing_seconds"] += \
                    time.process_time() - t
                canon[key] = hit
            raw[rkey] = hit
        else:
            k["raw_text_hits"] += 1
        if hit.startswith("refused"):
            k["refused"] += 1
            k["refused_v1_seconds"] += s
            why[hit[len("refused: "):]] += s
            whys[name][hit[len("refused: "):]] += s
        else:
            k["walked"] += 1
            k["walked_v1_seconds"] += s
    tot = collections.Counter()
    for k in per.values():
        tot.update(k)
    walked = {n: k for n, k in per.items() if k["walked"] == k["configurations"]}
    allw = collections.Counter()
    for k in walked.values():
        allw.update(k)
    r = lambda c: {a: round(b, 3) if isinstance(b, float) else b for a, b in sorted(c.items())}  # noqa: E731
    cost = tot["parse_and_canonicalise_seconds"] + tot["walk_and_names_seconds"] + tot["refusing_seconds"] + \
        tot["refused_v1_seconds"]
    print(json.dumps({
        "total": r(tot),
        "as_if_wired": {"seconds": round(cost, 1), "configurations_per_second": round(tot["configurations"] / cost, 1),
                        "v1_configurations_per_second": round(tot["configurations"] / tot["v1_seconds"], 1),
                        "note": "parse of new raw texts + walk and names + refusing + v1's seconds where refused: "
                                "an estimate from parts measured here, not a run of a wired checker"},
        "kernels_walked_whole": {"kernels": len(walked), **r(allw)},
        "per_kernel": {n: {**r(k), "refusals": {a: round(b, 2) for a, b in whys[n].most_common(3)}}
                       for n, k in sorted(per.items())},
        "refusals_by_v1_seconds": [{"why": a, "v1_seconds": round(b, 2)} for a, b in why.most_common(40)]},
        indent=1))


if __name__ == "__main__":
    main()
