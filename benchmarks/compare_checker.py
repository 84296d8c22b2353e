"""Compare the partitions of two checker.json files (benchmarks/checker_gate.py), class for class.

    python benchmarks/compare_checker.py BEFORE/checker.json AFTER/checker.json
    (or two reclass.json files of benchmarks/reclass_cpu.py)

Per kernel and launch grid: the same configurations, the same classes (as sets of
configurations) and the same number classed by v1. Prints every difference, and whether
AFTER merges anything BEFORE kept apart (unsound if BEFORE was). Exit status 1 on any
difference.
"""
from __future__ import annotations

import json
import sys


def _classes(row):
    """The row's classes as a set of frozensets of configurations (each a sorted-items tuple)."""
    return {frozenset(tuple(sorted(c.items())) for c in members) for members in row["members"]}


def compare(before: dict, after: dict) -> list:
    """Differences between two checker.json documents, as lines (empty when identical)."""
    rows_a = {(r["kernel"], r["grid"]): r for r in before["grids"]}
    rows_b = {(r["kernel"], r["grid"]): r for r in after["grids"]}
    out = [f"only in {which}: {k}" for which, ks in (("before", rows_a.keys() - rows_b.keys()),
                                                     ("after", rows_b.keys() - rows_a.keys())) for k in sorted(ks)]
    for k in sorted(rows_a.keys() & rows_b.keys()):
        a, b = rows_a[k], rows_b[k]
        ca, cb = _classes(a), _classes(b)
        if ca != cb:
            merged = [c for c in cb if not any(c <= x for x in ca)]
            out.append(f"{k}: classes {len(ca)} -> {len(cb)}" + (f", MERGES {len(merged)} classes" if merged else ""))
        if a["v1"] != b["v1"]:
            out.append(f"{k}: v1-classed {a['v1']} -> {b['v1']}")
    return out


def main():
    before, after = (json.load(open(p)) for p in sys.argv[1:3])
    diffs = compare(before, after)
    for line in diffs:
        print(line)
    sa, sb = before["summary"], after["summary"]
    # (reclass_cpu.py's reclass.json has no v1_classed in its summary: its rows' v1 counts are summed)
    v1a, v1b = (s.get("v1_classed", sum(r["v1"] for r in d["grids"])) for s, d in ((sa, before), (sb, after)))
    print(f"configs {sa['configs']} -> {sb['configs']}, classes {sa['classes']} -> {sb['classes']}, "
          f"v1 {v1a} -> {v1b}, configs/s {sa['checker_configs_per_s']} -> "
          f"{sb['checker_configs_per_s']}")
    print("identical partition" if not diffs else f"{len(diffs)} differences")
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main())
