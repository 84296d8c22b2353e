"""Every kernel's partition of its configurations (grouped by signature and level) in two checker_speed dumps,
compared: equal partitions of a kernel's configurations give equal partitions of each of its grids.

    python parts.py BASE.json NEW.json      (dumps of benchmarks/checker_speed.py --dump, unzipped)
"""
import collections
import json
import sys


def parts(path):
    by = collections.defaultdict(lambda: collections.defaultdict(list))
    for k, ans in json.load(open(path))["answers"].items():
        by[k.split("|")[0]][tuple(ans)].append(k)
    return {kn: sorted(sorted(v) for v in g.values()) for kn, g in by.items()}


a, b = parts(sys.argv[1]), parts(sys.argv[2])
diff = [kn for kn in a if a[kn] != b.get(kn)] + [kn for kn in b if kn not in a]
print(f"{len(a)} kernels, {len(diff)} partitions differ {diff}")
sys.exit(1 if diff else 0)
