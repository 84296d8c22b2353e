"""CPU-seconds by how each configuration was classed (v1, or v0 and why), from a checker_speed.py --dump
that holds per-configuration seconds, and the per-kernel table without the answers.

    python outcomes.py DUMP.json > outcomes.json
"""
import json
import re
import sys

d = json.load(open(sys.argv[1]))
agg = {}
for k, (sig, level) in d["answers"].items():
    why = "v1" if level.startswith("v1") else "v0: " + re.sub(r"%\w+|\d+\.\d+", "#", level[len("v0: program text ("):-1])
    a = agg.setdefault(why, {"configs": 0, "classing_s": 0.0})
    a["configs"] += 1
    a["classing_s"] += d["seconds"][k]
for a in agg.values():
    a["classing_s"] = round(a["classing_s"], 1)
out = {"by_outcome": dict(sorted(agg.items(), key=lambda kv: -kv[1]["classing_s"])),
       "per_kernel": d["per_kernel"], "total_configs": d["total_configs"], "total_classing_s": d["total_classing_s"]}
json.dump(out, sys.stdout, indent=1)
