"""How fast could a checker be that keeps v1's signatures? (2026-12-04g, CPU, one process.)

    python ceiling.py PTX_DIR OUT.json [SEED]

One configuration drawn per kernel (seeded; the nine Inductor cross-entropy kernels left out,
the looped ones' walks take seconds each), every memo emptied before each walk (a cold walk). For each
configuration v1 classes: the walk's CPU time, its node ids, the distinct node keys (the walk
again with shapes recorded), the CPU time to hash every distinct node once more with the walk's
own _hash (nothing else: the least work any design must do to give the same keys), and the
distinct nodes reachable from the stored trees (guards not followed: a lower bound on what a
signature reads). A design that gives v1's signatures must compute the key of every reachable
node, so hash time bounds its speed from below.
"""
import glob
import json
import os
import pickle
import random
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "src"))
from bitorder.check import dataflow, parse, symbolic  # noqa: E402
from bitorder.check.signature import divisible_params  # noqa: E402


class _Compiled:
    def __init__(self, asm):
        self.asm = asm


def _cold():
    symbolic._SEEN.clear()
    symbolic._SEEN_OLD.clear()
    symbolic._ONCE_SEEN.clear()


def drawn(ptx_dir, seed=2):
    """(kernel, index, entry, divisible) of one configuration drawn per kernel, the Inductor cross-entropy kernels
    left out: the draw every script here walks (census.py, npkeys.py)."""
    names = sorted(os.path.basename(p)[:-4] for p in glob.glob(os.path.join(ptx_dir, "*.pkl")))
    rng = random.Random(seed)
    for name in names:
        if name.startswith("inductor_cross_entropy"):
            continue
        with open(os.path.join(ptx_dir, f"{name}.pkl"), "rb") as f:
            recs = [r for r in pickle.load(f) if r[4] is not None]
        r = rng.choice(recs)
        yield name, r[1], parse(r[4]["ptx"])[0], divisible_params(_Compiled(r[4]))


def main(ptx_dir, out, seed=2):
    rows = []
    for name, index, entry, divisible in drawn(ptx_dir, seed):
        _cold()
        t0 = time.process_time()
        try:
            _, nodes = dataflow.walk(entry, divisible=divisible)
        except dataflow.Unsupported:
            continue      # v0: no keys to make
        walk_s = time.process_time() - t0
        _cold()
        roots, shaped = dataflow.walk(entry, shapes=True, divisible=divisible)
        shapes = list(shaped.shape.values())
        t0 = time.process_time()
        for op, kids, payload in shapes:
            symbolic._hash(op, kids, payload)
        hash_s = time.process_time() - t0
        seen, stack = set(), [v[1] for v in roots.values()]
        while stack:
            k = stack.pop()
            if k in seen or k not in shaped.shape:
                continue
            seen.add(k)
            stack.extend(x for x in shaped.shape[k][1] if isinstance(x, str))
        rows.append({"kernel": name, "index": index, "walk_s": round(walk_s, 4), "node_ids": len(nodes.key_of) - 1,
                     "distinct": len(shapes), "reachable": len(seen), "hash_s": round(hash_s, 4)})
        print(name, rows[-1], flush=True)
    tot = {k: sum(r[k] for r in rows) for k in ("walk_s", "node_ids", "distinct", "reachable", "hash_s")}
    summary = {"walks": len(rows), **{k: round(v, 2) for k, v in tot.items()},
               "walk_us_per_node_id": round(1e6 * tot["walk_s"] / tot["node_ids"], 2),
               "hash_us_per_distinct": round(1e6 * tot["hash_s"] / tot["distinct"], 2),
               "walk_over_hash": round(tot["walk_s"] / tot["hash_s"], 2),
               "reachable_share": round(tot["reachable"] / tot["distinct"], 3)}
    with open(out, "w") as f:
        json.dump({"summary": summary, "walks": rows}, f, indent=1)
    print(json.dumps(summary))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 2)
