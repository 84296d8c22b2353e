"""Where the whole corpus's classing time lies by num_warps (2026-12-06c's paired dumps, the interpreted side):
over every configuration and over the costliest 10%.

    python by_warps.py ../2026-12-06c-checker-cpu/paired_native_half_a.json.gz ../2026-12-06c-checker-cpu/paired_native_half_b.json.gz
"""
import collections
import gzip
import json
import re
import sys

rows = []
for path in sys.argv[1:]:
    d = json.load(gzip.open(path))
    rows += [(v, k) for k, v in d["base_seconds"].items()]
rows.sort(reverse=True)


def by_warps(part):
    out = collections.Counter()
    for v, k in part:
        m = re.search(r"num_warps: (\d+)", k)
        out[int(m.group(1)) if m else -1] += v
    return {w: round(s, 1) for w, s in sorted(out.items())}


top = rows[: len(rows) // 10]
print(json.dumps({"configurations": len(rows), "seconds": round(sum(v for v, _ in rows), 1),
                  "by_num_warps": by_warps(rows), "top10pct_seconds": round(sum(v for v, _ in top), 1),
                  "top10pct_by_num_warps": by_warps(top)}, indent=1))
