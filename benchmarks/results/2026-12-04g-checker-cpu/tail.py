"""Where a whole-corpus run's time goes, configuration by configuration: python tail.py DUMP OUT.json

DUMP: a `benchmarks/checker_speed.py --dump` file (its "seconds": CPU-s per configuration)."""
import json
import sys

with open(sys.argv[1]) as f:
    d = json.load(f)
secs = sorted(d["seconds"].values(), reverse=True)
total = sum(secs)
out = {"configs": len(secs), "total_s": round(total, 1), "under_3ms": sum(1 for s in secs if s < 0.003),
       "costliest": {}}
for share in (0.001, 0.01, 0.05, 0.1, 0.25):
    k = max(1, int(share * len(secs)))
    out["costliest"][f"{share:g}"] = {"configs": k, "from_s": secs[k - 1], "seconds": round(sum(secs[:k]), 1),
                                      "share_of_time": round(sum(secs[:k]) / total, 3)}
by_kernel = {}
for key, s in d["seconds"].items():
    by_kernel[key.split("|")[0]] = by_kernel.get(key.split("|")[0], 0.0) + s
out["costliest_kernels"] = {k: round(v, 1) for k, v in sorted(by_kernel.items(), key=lambda kv: -kv[1])[:8]}
with open(sys.argv[2], "w") as f:
    json.dump(out, f, indent=1)
print(json.dumps(out, indent=1))
