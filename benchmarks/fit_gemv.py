"""Fit the SIMT gemv model (bitorder.emulate.simt) to the H200 survey's gemv records (algorithm 13).

CPU only. For each record: enumerate GemvOrders (split span, lanes per output, chunk, lane fold,
part merge), keep those whose walks (read off the order, simt.walk_codes) give the recorded
codes at every walked position, then those whose CPU twin (simt.accumulate, with both product
forms and, with a bias, both bias placements) reproduces every sampled output of both draws
bytewise. Per kernel kind, says which fields every record settles and which stay open.

    python benchmarks/fit_gemv.py [SURVEY] [--out DIR]
"""
from __future__ import annotations

import argparse
import itertools
import json
import os
import sys
import time

import numpy as np

from bitorder.cublas import prober
# the enumeration and the kernel kinds are the package prober's (bitorder probe gemv): shared, not copied
from bitorder.cublas.prober_gemv import kernel_kind, settled, signature, structures
from bitorder.emulate import simt

HERE = os.path.dirname(os.path.abspath(__file__))
SURVEY = os.path.join(HERE, "results", "2026-11-29-survey", "survey.jsonl.gz")


def gemv_records(path: str = SURVEY) -> list:
    return [r for r in prober.load_records(path) if r.get("ran") and r["ran"][0]["algo_id"] == 13]


def vector_operand(rec: dict) -> str:
    """Which torch operand is the vector, and whether the matrix runs along K in memory ("T" gemv)
    or along the outputs ("N" gemv)."""
    q = rec["query"]
    if q["m"] == 1:        # cuBLAS's A (torch's B) is the vector; the matrix is cuBLAS's B
        return "torch B (N=1), " + ("N" if q["transb"] else "T")
    return "torch A (M=1), " + ("T" if q["transa"] else "N")


def recorded_walk(rec: dict) -> dict:
    """{position: code} over both walks (small and edge give the same codes on every gemv record)."""
    small, edge = prober.walk_codes(rec, "small"), prober.walk_codes(rec, "edge")
    assert small == edge or not edge
    return small


def walk_fit(rec: dict, orders) -> list:
    codes = recorded_walk(rec)
    if not codes:
        return list(orders)
    pos = np.array(sorted(codes))
    want = np.array([codes[m] for m in pos])
    if (want == 2).any():
        return []
    k = rec["case"]["k"]
    # Codes at m >= span - 1 depend on the span and the merge only: settle those first, per group.
    groups = {}
    for o in orders:
        groups.setdefault((o.span, o.merge), []).append(o)
    kept = []
    for (span, merge), os_ in groups.items():
        if span is not None:
            tail = pos >= span - 1
            rep = simt.GemvOrder(span=span, merge=merge)
            if not np.array_equal(simt.walk_codes(rep, k, pos[tail]), want[tail]):
                continue
        kept += os_
    # then a cheap pass over the positions where the code changes and a few others
    edge = np.flatnonzero(np.diff(want)) if len(want) > 1 else np.array([], int)
    pick = np.unique(np.concatenate([edge, edge + 1, np.arange(0, len(pos), max(1, len(pos) // 200))]))
    alive = [o for o in kept if np.array_equal(simt.walk_codes(o, k, pos[pick]), want[pick])]
    return [o for o in alive if np.array_equal(simt.walk_codes(o, k, pos), want)]


def sample_mismatches(rec: dict, order: simt.GemvOrder) -> int:
    """Sampled outputs (both draws) the twin of `order` gets wrong."""
    return prober.gemv_mismatches({**rec, "walk_small": None, "walk_edge": None}, order)[0]


def sample_fit(rec: dict, orders) -> tuple:
    """(orders reproducing every sampled bit, {signature: mismatches} of the distinct trees tried)."""
    k = rec["case"]["k"]
    biases = simt.BIASES if rec["case"]["op"] == "linear_bias" else ("acc",)
    seen, alive = {}, []
    for o in orders:
        sig = signature(o, k)
        for product, bias in itertools.product(simt.PRODUCTS, biases):
            key = sig + (product, bias)
            if key not in seen:
                seen[key] = sample_mismatches(rec, o.replace(product=product, bias=bias))
            if seen[key] == 0:
                alive.append(o.replace(product=product, bias=bias))
    return alive, seen


def hypothesis(o: simt.GemvOrder) -> tuple:
    """What a kernel kind must share across its calls: all but the per-call lanes and span."""
    return (o.fold, "contiguous" if o.chunk is None else o.chunk, o.merge if o.span else "-", o.product, o.bias)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("survey", nargs="?", default=SURVEY)
    ap.add_argument("--out", default=None, help="write fit.json here")
    args = ap.parse_args(argv)
    recs = gemv_records(args.survey)
    rows, t0 = [], time.time()
    for i, rec in enumerate(recs):
        c, k = rec["case"], rec["case"]["k"]
        cand = list(structures(k, any("splitKreduce" in x for x in rec["kernels"])))
        walked = walk_fit(rec, cand)
        alive, tried = sample_fit(rec, walked)
        n_samples = sum(len(rec["samples_" + d]["bits"]) * len(rec["samples_" + d]["rows"]) *
                        len(rec["samples_" + d]["cols"]) for d in ("narrow", "wide"))
        row = {"i": i, "kind": kernel_kind(rec), "vector": vector_operand(rec), "op": c["op"], "dtype": c["dtype"],
               "m": c["m"], "n": c["n"], "k": k, "batch": c["batch"], "layout": c["layout"],
               "custom_option": rec["ran"][0]["custom_option"], "walk_positions": len(recorded_walk(rec)),
               "sampled_outputs": n_samples, "candidates": len(cand), "walk_survivors": len(walked),
               "trees_tried": len(tried), "survivors": len(alive), "settled": settled(alive, k),
               "examples": [str(o) for o in alive[:3]]}
        row["hypotheses"] = sorted({hypothesis(o) for o in alive}, key=str)
        row["per_hypothesis"] = {str(h): sorted({(o.lanes, o.span) for o in alive if hypothesis(o) == h}, key=str)[:8]
                                 for h in row["hypotheses"]}
        rows.append(row)
        print(f"[{time.time() - t0:6.0f}s] {i:2d} {row['kind'][:60]:60s} {c['dtype']} {c['m']}x{c['n']}x{k} "
              f"walk {len(walked)}/{len(cand)} bits {len(alive)} {row['settled']}", flush=True)
    kinds = {}
    for row in rows:
        kinds.setdefault(row["kind"], []).append(row)
    summary = {}
    for kind, rs in kinds.items():
        common = None
        for r in rs:
            hs = {str(h) for h in r["hypotheses"]}
            if r["op"] != "linear_bias":        # no bias: both placements fit alike
                hs |= {h.replace("'acc')", "'out')") for h in hs}
            common = hs if common is None else common & hs
        summary[kind] = {"records": [r["i"] for r in rs], "explained": all(r["survivors"] for r in rs),
                         "common_hypotheses": sorted(common)}
        print(f"== {kind}: records {summary[kind]['records']}, every record explained: "
              f"{summary[kind]['explained']}, hypotheses shared by all: {len(common)}")
        for h in sorted(common):
            print("     ", h)
    if args.out:
        os.makedirs(args.out, exist_ok=True)
        with open(os.path.join(args.out, "fit.json"), "w") as f:
            json.dump({"survey": os.path.relpath(args.survey, os.path.dirname(HERE)), "kinds": summary,
                       "records": rows}, f, indent=1)
    return rows


if __name__ == "__main__":
    sys.exit(0 if main() else 1)
