"""One answer from several GPU gates of one checker tree (benchmarks/checker_gate.py's checker.json files):
the corpus gated in parts, each kernel taken from the last file that holds it (a kernel re-gated whole in a
later part replaces its earlier rows).

    python benchmarks/checker_union.py --out DIR A/checker.json B/checker.json ...

Writes DIR/union.json (the summary, per family and per kernel: configurations, checker classes, true
classes, certified pairs, wrong merges) and DIR/union.png (checker classes over true classes, every
kernel), and prints the kernels of a family over its target (1.5 for reductions and normalizations).
"""
from __future__ import annotations

import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
from checker_gate import plot  # noqa: E402

TARGET = {"reduction": 1.5, "normalization": 1.5, "gemm": 1.0}


def union(docs: list) -> list:
    """The grid rows of every kernel, from the last document holding that kernel."""
    owner = {}
    for i, d in enumerate(docs):
        for r in d["grids"]:
            owner[r["kernel"]] = i
    return [r for i, d in enumerate(docs) for r in d["grids"] if owner[r["kernel"]] == i]


def tally(rows: list, key) -> dict:
    """Sums of the rows' counts grouped by key(row)."""
    out = {}
    for r in rows:
        t = out.setdefault(key(r), {"configs": 0, "classes": 0, "true_classes": 0, "certified_pairs": 0,
                                    "wrong_merges": 0, "v1": 0, "family": r["family"]})
        for k in ("configs", "classes", "true_classes", "certified_pairs", "v1"):
            t[k] += r[k]
        t["wrong_merges"] += len(r["wrong_merges"])
    for t in out.values():
        t["ratio"] = round(t["classes"] / t["true_classes"], 3)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    docs = [json.load(open(f)) for f in a.files]
    rows = union(docs)
    total = {k: v for k, v in tally(rows, lambda r: "all")["all"].items() if k != "family"}
    kernels = tally(rows, lambda r: r["kernel"])
    families = tally(rows, lambda r: r["family"])
    over = {k: t["ratio"] for k, t in sorted(kernels.items()) if t["ratio"] > TARGET.get(t["family"], 1e9)}
    os.makedirs(a.out, exist_ok=True)
    summary = {"files": a.files, "kernels": len(kernels), **total, "families": families, "over_target": over}
    json.dump({**summary, "per_kernel": kernels}, open(os.path.join(a.out, "union.json"), "w"), indent=1)
    plot(rows, os.path.join(a.out, "union.png"))
    print(json.dumps({k: v for k, v in summary.items() if k != "files"}, indent=1))
    return 1 if total["wrong_merges"] else 0


if __name__ == "__main__":
    sys.exit(main())
