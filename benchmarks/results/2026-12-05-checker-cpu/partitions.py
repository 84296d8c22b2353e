"""Per kernel, the partitions two checkers give (benchmarks/checker_speed.py --base ... --dump's files:
"base_answers" against "answers"): classes, configurations classed by v1, CPU-seconds, and whether the
partitions are the same (a kernel's partition is its configurations grouped by signature).

    python partitions.py HALF_A.json[.gz] [HALF_B.json[.gz] ...] [--json OUT]
"""
import collections
import gzip
import json
import sys


def main(paths, out=None):
    d = {"answers": {}, "base_answers": {}, "seconds": {}, "base_seconds": {}}
    for p in paths:
        with (gzip.open(p, "rt") if p.endswith(".gz") else open(p)) as f:
            loaded = json.load(f)
        for k, v in loaded.items():
            d[k].update(v)
    per = collections.defaultdict(list)
    for k in d["answers"]:
        per[k.split("|")[0]].append(k)

    def part(ans, keys):
        groups = collections.defaultdict(set)
        for k in keys:
            groups[ans[k][0]].add(k)
        return {frozenset(g) for g in groups.values()}

    rows, tot = {}, collections.Counter()
    for name, keys in sorted(per.items()):
        b, a = d["base_answers"], d["answers"]
        r = {"configs": len(keys),
             "classes": [len({b[k][0] for k in keys}), len({a[k][0] for k in keys})],
             "v1": [sum(b[k][1].startswith("v1") for k in keys), sum(a[k][1].startswith("v1") for k in keys)],
             "seconds": [round(sum(d["base_seconds"][k] for k in keys), 2), round(sum(d["seconds"][k] for k in keys), 2)],
             "signatures_differ": sum(b[k][0] != a[k][0] for k in keys),
             "levels_differ": sum(b[k][1] != a[k][1] for k in keys),
             "same_partition": part(b, keys) == part(a, keys)}
        rows[name] = r
        tot["configs"] += r["configs"]
        tot["base_s"] += r["seconds"][0]
        tot["new_s"] += r["seconds"][1]
        tot["kernels_partition_differs"] += not r["same_partition"]
        tot["signatures_differ"] += r["signatures_differ"]
        if r["signatures_differ"] or r["levels_differ"] or not r["same_partition"]:
            print(f"{name:40s} classes {r['classes'][0]:4d} -> {r['classes'][1]:4d}  v1 {r['v1'][0]:4d} -> {r['v1'][1]:4d}  "
                  f"{r['seconds'][0]:7.1f} -> {r['seconds'][1]:7.1f} s  signatures differ {r['signatures_differ']:3d}  "
                  f"levels differ {r['levels_differ']:3d}  {'same partition' if r['same_partition'] else 'PARTITION DIFFERS'}")
    summary = {"configs": tot["configs"], "base_s": round(tot["base_s"], 1), "new_s": round(tot["new_s"], 1),
               "base_per_s": round(tot["configs"] / tot["base_s"], 2), "new_per_s": round(tot["configs"] / tot["new_s"], 2),
               "signatures_differ": tot["signatures_differ"], "kernels_whose_partition_differs": tot["kernels_partition_differs"]}
    print(json.dumps(summary))
    if out:
        with open(out, "w") as f:
            json.dump({"summary": summary, "per_kernel": rows}, f, indent=1, sort_keys=True)


if __name__ == "__main__":
    args = sys.argv[1:]
    out = None
    if "--json" in args:
        i = args.index("--json")
        out = args[i + 1]
        args = args[:i] + args[i + 2:]
    main(args, out)
