"""Configurations per CPU-second by corpus group and family, from a checker_speed.py --dump of the whole corpus.

    python summarize.py DUMP.json UNION.json > summary.json
"""
import json
import sys

dump, union = (json.load(open(p)) for p in sys.argv[1:3])
fam = {k: v["family"] for k, v in union["per_kernel"].items()}


def group(k):
    return "inductor" if k.startswith("inductor_") else "pinned" if k.startswith("pinned_") else "rest"


out = {}
for by, key in (("group", group), ("family", lambda k: fam.get(k, "?"))):
    agg = {}
    for k, v in dump["per_kernel"].items():
        a = agg.setdefault(key(k), {"configs": 0, "classing_s": 0.0})
        a["configs"] += v["configs"]
        a["classing_s"] += v["classing_s"]
    for a in agg.values():
        a["classing_s"] = round(a["classing_s"], 1)
        a["per_s"] = round(a["configs"] / max(a["classing_s"], 1e-9), 1)
    out[by] = agg
out["total"] = {"configs": dump["total_configs"], "classing_s": dump["total_classing_s"],
                "per_s": round(dump["total_configs"] / dump["total_classing_s"], 1)}
slow = sorted(dump["per_kernel"].items(), key=lambda kv: -kv[1]["classing_s"])[:15]
out["slowest"] = {k: v for k, v in slow}
json.dump(out, sys.stdout, indent=1)
