"""The walk over one symbolic thread (check/families/walk.py) checked against the concrete walk on the corpus:
for each configuration the family walk takes, its stores put at every thread must be the concrete walk's roots,
exactly (address keys, guard names, tree keys, widths).

    python benchmarks/families_walk.py [--ptx /tmp/ckd/all] [--kernels a,b,..] [--json OUT]

Per configuration: "equal" (the roots agree), "differ" (a wrong family rule: must be 0; the first are listed),
"family refused: <why>" (the family walk falls back), "concrete refused" (dataflow.walk raised; not compared),
"walked, roots not compared" (blocks of more than --roots-max-threads threads: walked and named, for the partitions
and times only).
Over the configurations of a kernel that walk as families, the partition by the v2 signature (families/names.py) is
compared with today's (check.signature): "partition: equal" or "differs", and "v2 classes joining v1 classes"
counted (v1 is GPU-gated; such a class would be a merge no gate has checked). Times: the family walk alone, its names, its roots put at every thread, and the concrete walk, in CPU seconds. Exits 1 on any
difference of roots and on any v2 class joining v1 classes."""
from __future__ import annotations

import argparse
import collections
import glob
import json
import os
import pickle
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src"))
# today's partition is v1's (check.signature walks families first by default since 2026-12-07c: compared with itself)
os.environ["BITORDER_FAMILIES"] = "0"

from bitorder.check import dataflow  # noqa: E402
from bitorder import check  # noqa: E402
from bitorder.check.families import names as fn  # noqa: E402
from bitorder.check.families import walk as fw  # noqa: E402
from bitorder.check.signature import _entry, divisible_params  # noqa: E402
from bitorder.check.symbolic import Unsupported  # noqa: E402


_TIMES = ("family walk", "family names", "concrete walk", "concrete signature")


class _Asm:
    def __init__(self, asm):
        self.asm = asm


def _v1(asm, secs: dict) -> None:
    """The v1 signature of a configuration into secs["v1"], its CPU seconds into secs["concrete signature"]."""
    t = time.process_time()
    secs["v1"] = check.signature(_Asm(asm))
    secs["concrete signature"] = time.process_time() - t


def compare(asm, roots_max_threads: int = 256) -> tuple:
    """(outcome, detail, {part: CPU seconds}) of one configuration's asm dict (its roots compared where the block has
    at most roots_max_threads threads: putting a reduced value at every thread of 512 costs seconds)."""
    entry, divisible = _entry(asm["ptx"]), divisible_params(asm)
    secs = {}
    t0 = time.process_time()
    try:
        stores, n = fw.walk(entry, divisible)
    except Unsupported as e:
        return f"family refused: {str(e)[:60]}", None, secs
    except Exception as e:      # (a rule's own error: counted apart, as a defect to mend)
        return f"family crashed: {type(e).__name__}: {str(e)[:60]}", None, secs
    t1 = time.process_time()
    secs["family walk"] = t1 - t0
    try:
        v2 = fn.signature(stores, n, divisible)
    except Unsupported as e:
        return f"names refused: {str(e)[:60]}", None, secs
    except Exception as e:
        return f"names crashed: {type(e).__name__}: {str(e)[:60]}", None, secs
    secs["family names"] = time.process_time() - t1
    secs["v2"] = v2
    t1 = time.process_time()
    if n > roots_max_threads:
        _v1(asm, secs)
        return f"walked, roots not compared (more than {roots_max_threads} threads)", None, secs
    try:
        mine = fw.roots_at(stores, n)
    except Unsupported as e:
        return f"family roots refused: {str(e)[:60]}", None, secs
    secs["family roots at threads"] = time.process_time() - t1
    t2 = time.process_time()
    try:
        theirs = dataflow.walk(entry, divisible=divisible)[0]
    except Unsupported as e:
        return "concrete refused", str(e)[:120], secs
    secs["concrete walk"] = time.process_time() - t2
    _v1(asm, secs)
    if mine == theirs:
        return "equal", None, secs
    k = sorted(set(mine) ^ set(theirs))[:1] or [next(x for x in sorted(mine) if mine[x] != theirs[x])]
    return "differ", {"address": k[0], "family": mine.get(k[0]), "concrete": theirs.get(k[0]),
                      "stores": [len(mine), len(theirs)]}, secs


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--ptx", default="/tmp/ckd/all")
    ap.add_argument("--kernels", help="comma-separated kernel names (default: every one)")
    ap.add_argument("--json")
    ap.add_argument("--roots-max-threads", type=int, default=256)
    a = ap.parse_args()
    paths = sorted(glob.glob(os.path.join(a.ptx, "*.pkl")))
    if a.kernels:
        want = set(a.kernels.split(","))
        paths = [p for p in paths if os.path.basename(p)[:-4] in want]
    counts, secs, differ, per_kernel = collections.Counter(), collections.Counter(), [], {}
    partitions = collections.Counter()
    outcomes = {}    # "kernel|index|config" -> [outcome, CPU seconds of each of _TIMES]
    for path in paths:
        name = os.path.basename(path)[:-4]
        mine = collections.Counter()
        v1, v2 = {}, {}
        for rec in pickle.load(open(path, "rb")):
            if rec[4] is None:
                continue
            outcome, detail, s = compare(rec[4], a.roots_max_threads)
            mine[outcome] += 1
            outcomes[f"{name}|{rec[1]}|{rec[2]}"] = [outcome, *(round(s.get(k, 0), 5) for k in _TIMES)]
            if "v2" in s:
                v2.setdefault(s.pop("v2"), set()).add(rec[2])
            if "v1" in s:
                v1.setdefault(s.pop("v1"), set()).add(rec[2])
            secs.update(s)
            if outcome == "differ" and len(differ) < 20:
                differ.append({"kernel": name, "config": rec[2], **detail})
        if v2:
            same = sorted(map(sorted, v1.values())) == sorted(map(sorted, v2.values()))
            mine["partition: " + ("equal" if same else f"differs ({len(v1)} v1 classes, {len(v2)} v2)")] += 1
            partitions["equal" if same else "differ"] += 1
            # v1 is the GPU-gated partition: a v2 class over configurations of two v1 classes would be a merge
            # no gate has checked (counted, and the exit code says so)
            of = {c: k for k, cs in v1.items() for c in cs}
            joined = sum(len({of.get(c) for c in cs}) > 1 for cs in v2.values())
            if joined:
                mine["partition: v2 classes joining v1 classes"] += joined
                partitions["v2 classes joining v1 classes"] += joined
        counts.update(mine)
        per_kernel[name] = dict(mine)
    out = {"kernels": len(paths), "counts": dict(counts.most_common()), "partitions": dict(partitions),
           "cpu_seconds": {k: round(v, 2) for k, v in secs.items()}, "differ": differ, "per_kernel": per_kernel,
           "times": _TIMES, "configurations": outcomes}
    print(json.dumps({k: v for k, v in out.items() if k not in ("per_kernel", "configurations")}, indent=1,
                     default=str))
    if a.json:
        with open(a.json, "w") as f:
            json.dump(out, f, indent=1, default=str)
    return 1 if counts["differ"] or partitions["v2 classes joining v1 classes"] else 0


if __name__ == "__main__":
    sys.exit(main())
