"""Re-class the checker's corpus on the CPU and hold the new classes against the GPU truth a
checker gate stored (checker.json of `checker_gate.py --gpu`).

Every configuration is compiled here for sm90 (no GPU) and partitioned by the checker as it is
now, grid by grid. What the stored run tells about the truth of a grid:
  true_classes == 1                      every configuration gave the same bytes: any merge is sound
  classes == true_classes (0 wrong)      the stored checker partition *is* the true partition
  otherwise                              only the count: the stored partition refines the truth
A new class that spans two true classes is a WRONG MERGE (exit 1). A new class that spans two
stored classes of a grid whose true partition is not known is UNVERIFIED (the GPU must decide;
reported, not failed). Writes reclass.json and prints per-kernel checker/true ratios before
and after.

    python benchmarks/reclass_cpu.py --stored benchmarks/results/2026-11-30b-checker/checker.json \
        --out DIR [--kernels a,b] [--bind] [--jobs N]
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))


def _key(cfg: dict) -> str:
    return json.dumps(cfg, sort_keys=True)


def known_truth(row):
    """The stored grid's true partition as sets of configuration keys, or None if only its count is known."""
    every = [_key(c) for cls in row["members"] for c in cls]
    if row["true_classes"] == 1:
        return [set(every)]
    if row["classes"] == row["true_classes"] and not row.get("wrong_merges"):
        return [{_key(c) for c in cls} for cls in row["members"]]
    return None


def judge(stored_row, new_classes):
    """(wrong merges, unverified merges) of a new partition (lists of configuration keys) of one grid."""
    truth = known_truth(stored_row)
    old = [{_key(c) for c in cls} for cls in stored_row["members"]]
    wrong, unverified = [], []
    for cls in new_classes:
        cls = set(cls)
        if truth is not None:
            if not any(cls <= t for t in truth):
                wrong.append(sorted(cls))
        elif not any(cls <= o for o in old):
            unverified.append(sorted(cls))
    return wrong, unverified


def ratios(rows, field="classes"):
    """{kernel: (checker classes, true classes, ratio)} summed over its grids."""
    per = {}
    for r in rows:
        a = per.setdefault(r["kernel"], [0, 0])
        a[0] += r[field]
        a[1] += r["true_classes"]
    return {k: (c, t, round(c / t, 2)) for k, (c, t) in per.items()}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--stored", default="benchmarks/results/2026-11-30b-checker/checker.json")
    ap.add_argument("--out", required=True)
    ap.add_argument("--kernels", default="")
    ap.add_argument("--bind", action="store_true", help="class for the corpus launch's integer arguments (checker_gate --bind)")
    ap.add_argument("--jobs", type=int, default=1, help="kernels classed in parallel (spawned processes)")
    a = ap.parse_args()
    from checker_gate import gate_all
    stored = json.load(open(a.stored))
    by_grid = {(r["kernel"], r["grid"]): r for r in stored["grids"]}
    names = [n for n in a.kernels.split(",") if n] or sorted({r["kernel"] for r in stored["grids"]})
    unstored = sorted(set(names) - {r["kernel"] for r in stored["grids"]})
    if unstored:   # e.g. kernels added to the corpus after the stored GPU run: no truth to judge against
        sys.exit(f"{a.stored} has no GPU rows for {unstored}; checker_gate.py (no --gpu) gives their partition")
    rows, wrong, unverified, classing_s, t0, stale = [], 0, 0, 0.0, time.time(), set()
    for name, (new_rows, _, cs) in gate_all(names, False, 0, None, 7, None, a.jobs, {"bind": a.bind}):
        classing_s += cs
        for nr in new_rows:
            old = by_grid[(name, nr["grid"])]
            if old.get("source", nr["source"]) != nr["source"]:
                stale.add(name)   # the kernel changed since the GPU measured it: no truth to judge by
                continue
            new_classes = [[_key(c) for c in cls] for cls in nr["members"]]
            w, u = judge(old, new_classes)
            wrong += len(w)
            unverified += len(u)
            rows.append({"kernel": name, "grid": nr["grid"], "configs": nr["configs"], "classes_before": old["classes"],
                         "classes": nr["classes"], "true_classes": old["true_classes"],
                         "truth_known": known_truth(old) is not None, "wrong_merges": w, "unverified_merges": u,
                         "v1": nr["v1"], "members": nr["members"]})
    before, after = ratios(rows, "classes_before"), ratios(rows)
    n_cfg = sum(r["configs"] for r in rows)
    summary = {"date": time.strftime("%Y-%m-%d"), "stored": a.stored, "bind": a.bind, "kernels": len(names), "grids": len(rows),
               "configs": n_cfg, "classes_before": sum(r["classes_before"] for r in rows),
               "classes": sum(r["classes"] for r in rows), "true_classes": sum(r["true_classes"] for r in rows),
               "wrong_merges": wrong, "unverified_merges": unverified, "stale_truth": sorted(stale),
               "checker_configs_per_s": round(n_cfg / max(classing_s, 1e-9), 1), "wall_s": round(time.time() - t0, 1)}
    os.makedirs(a.out, exist_ok=True)
    with open(os.path.join(a.out, "reclass.json"), "w") as f:
        json.dump({"summary": summary, "ratios_before": before, "ratios_after": after, "grids": rows}, f, indent=1)
    for k in sorted(after, key=lambda k: (-before[k][2], k)):
        if before[k][2] != 1.0 or after[k][2] != 1.0:
            print(f"{k:22s} before {before[k][0]:3d}/{before[k][1]:3d} = {before[k][2]:5.2f}   "
                  f"after {after[k][0]:3d}/{after[k][1]:3d} = {after[k][2]:5.2f}")
    print(json.dumps(summary))
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
